/** 32-bit FNV-1a hash of a string, used to turn seeds and labels into PRNG states. */
function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * A small seeded pseudo-random generator (mulberry32). The same seed gives the same sequence, so a
 * fleet started with `--seed 1` makes the same choices every run; `fork` derives independent streams.
 */
export class Random {
  private state: number;

  constructor(seed: number | string) {
    this.state = hash32(String(seed));
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** A float in [min, max). */
  float(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One item of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** A normally distributed float (mean 0, standard deviation 1), by Box-Muller. */
  gaussian(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /** A string of `count` decimal digits. */
  digits(count: number): string {
    let text = "";
    for (let i = 0; i < count; i++) text += String(this.int(0, 9));
    return text;
  }

  /** An independent generator whose sequence depends on this one's seed history and `label`. */
  fork(label: string): Random {
    return new Random(`${this.state}:${label}`);
  }
}
