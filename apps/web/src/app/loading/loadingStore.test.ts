import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadingStore } from "./loadingStore";

describe("loadingStore", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("shows the bar only for requests that take over a second", () => {
    const fast = loadingStore.track();
    vi.advanceTimersByTime(900);
    fast();
    vi.advanceTimersByTime(500);
    expect(loadingStore.isVisible()).toBe(false);

    const slow = loadingStore.track();
    vi.advanceTimersByTime(1000);
    expect(loadingStore.isVisible()).toBe(true);
    slow();
    expect(loadingStore.isVisible()).toBe(false);
  });

  it("shows the bar while a named flag is on", () => {
    loadingStore.setFlag("realtime", true);
    expect(loadingStore.isVisible()).toBe(true);
    loadingStore.setFlag("realtime", false);
    expect(loadingStore.isVisible()).toBe(false);
  });
});
