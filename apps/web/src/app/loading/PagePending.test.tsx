import { act, cleanup, render } from "@testing-library/react";
import { lazy } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadingStore } from "./loadingStore";
import { PageSuspense } from "./PagePending";

// Issue 27 item 15: under load a page's code and texts took 2–5 s to come, and the page stayed blank
// with no loading bar; spec section 9 shows the bar after a second.
const Never = lazy(() => new Promise<{ default: () => null }>(() => undefined));

describe("a page still being fetched", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it("shows the loading bar after a second, and not before", () => {
    render(
      <PageSuspense>
        <Never />
      </PageSuspense>,
    );
    act(() => vi.advanceTimersByTime(900));
    expect(loadingStore.isVisible()).toBe(false);
    act(() => vi.advanceTimersByTime(200));
    expect(loadingStore.isVisible()).toBe(true);
    cleanup();
    expect(loadingStore.isVisible()).toBe(false);
  });
});
