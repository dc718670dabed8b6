import { describe, expect, it } from "vitest";
import { createPacer } from "./terminal-session";

// The bandwidth cap's pacer (ADR 038) on a clock of its own: a stream that sends its next chunk as
// soon as the pacer lets it, with timers that fire late, moves at the cap within 10%.

function paceStream(options: { rate: number; chunk: number; total: number; lateMs: number }): number {
  let clock = 0;
  const pacer = createPacer(options.rate, () => clock);
  let sent = 0;
  while (sent < options.total) {
    sent += options.chunk;
    const delay = pacer.delayAfter(options.chunk);
    if (delay > 0) clock += delay + options.lateMs;
  }
  return sent / (clock / 1000);
}

describe("the bandwidth pacer", () => {
  it.each([
    { rate: 128 * 1024, chunk: 32 * 1024, lateMs: 0 },
    { rate: 128 * 1024, chunk: 32 * 1024, lateMs: 40 },
    { rate: 1024 * 1024, chunk: 16 * 1024, lateMs: 5 },
    { rate: 8 * 1024, chunk: 1024, lateMs: 20 },
  ])("holds $rate B/s within 10% (chunks of $chunk, timers $lateMs ms late)", ({ rate, chunk, lateMs }) => {
    const measured = paceStream({ rate, chunk, total: rate * 10, lateMs });
    expect(measured).toBeGreaterThan(rate * 0.9);
    expect(measured).toBeLessThan(rate * 1.1);
  });

  it("lets no more than a quarter second through at once after a quiet spell", () => {
    const clock = 10_000;
    const pacer = createPacer(100_000, () => clock);
    expect(pacer.delayAfter(25_000)).toBe(0);
    expect(pacer.delayAfter(25_000)).toBeGreaterThan(0);
  });
});
