/**
 * A counting semaphore without promises: `tryAcquire` takes a slot if one is free, `release` gives
 * it back and wakes waiters until the slots are gone again. The fleet shares one across its routers
 * to bound unacknowledged QoS 1 publishes in total; each router has its own for its share.
 */
export class InflightLimit {
  private used = 0;
  private peakUsed = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new Error(`in-flight limit must be a positive integer, got ${limit}`);
  }

  /** Slots taken now. */
  get inUse(): number {
    return this.used;
  }

  /** Most slots ever taken at once. */
  get peak(): number {
    return this.peakUsed;
  }

  /** Takes a slot if one is free. */
  tryAcquire(): boolean {
    if (this.used >= this.limit) return false;
    this.used++;
    if (this.used > this.peakUsed) this.peakUsed = this.used;
    return true;
  }

  /** Gives a slot back and lets waiters try again while slots remain. */
  release(): void {
    if (this.used === 0) throw new Error("in-flight limit released more often than acquired");
    this.used--;
    while (this.used < this.limit && this.waiters.length > 0) this.waiters.shift()?.();
  }

  /** Calls `wake` once, the next time a slot is released. */
  whenReleased(wake: () => void): void {
    this.waiters.push(wake);
  }
}
