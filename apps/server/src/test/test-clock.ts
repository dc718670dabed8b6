/** A clock tests move by hand instead of sleeping. */
export interface TestClock {
  now: () => Date;
  advance(ms: number): void;
  advanceMinutes(minutes: number): void;
}

export function createTestClock(start: Date = new Date()): TestClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(ms) {
      current += ms;
    },
    advanceMinutes(minutes) {
      current += minutes * 60_000;
    },
  };
}
