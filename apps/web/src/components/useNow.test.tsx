import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { setLocale } from "../app/i18n";
import { RelativeTime } from "./labels";
import { CLOCK_TICK_MS, useNow } from "./useNow";

// Issue 27 item 8: relative times went stale and disagreed, each list ticking on its own interval
// from the moment it mounted. One clock for the console: every list moves on at the same tick, and
// a tab shown again reads the time at once.

const T0 = Date.UTC(2026, 10, 28, 12, 0, 0);
const MINUTE = 60_000;

function Ago({ id, time }: { id: string; time: number }) {
  const now = useNow();
  return (
    <span data-testid={id}>
      <RelativeTime time={time} now={now} />
    </span>
  );
}

beforeAll(async () => {
  await setLocale("en");
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("the console's one clock", () => {
  it("moves every list on at the same tick, whenever each mounted", () => {
    vi.useFakeTimers({ now: T0 });
    // 29 min 45 s old at T0: "just now" until the clock passes T0 + 15 s.
    const time = T0 - 29 * MINUTE - 45_000;
    render(<Ago id="events" time={time} />);
    act(() => vi.advanceTimersByTime(10_000));
    render(<Ago id="commands" time={time} />);
    expect(screen.getByTestId("events").textContent).toBe("just now");
    expect(screen.getByTestId("commands").textContent).toBe("just now");
    act(() => vi.advanceTimersByTime(CLOCK_TICK_MS - 10_000 + 5_000));
    expect(screen.getByTestId("events").textContent).toBe("30 min ago");
    expect(screen.getByTestId("commands").textContent).toBe("30 min ago");
  });

  it("reads the time as soon as the tab is shown again, without waiting for the tick", () => {
    vi.useFakeTimers({ now: T0 });
    render(<Ago id="events" time={T0 - 5 * MINUTE} />);
    expect(screen.getByTestId("events").textContent).toBe("just now");
    // A hidden tab's timers were held back: the time moved on, no tick came.
    vi.setSystemTime(T0 + 40 * MINUTE);
    act(() => {
      document.dispatchEvent(new Event("visibilitychange"));
    });
    expect(screen.getByTestId("events").textContent).toBe("45 min ago");
  });
});
