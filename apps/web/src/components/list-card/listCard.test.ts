import { SEARCH_DEBOUNCE_MS } from "@cellfleet/contract";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { debounce } from "./debounce";
import { activeFilters, initialListState, type ListState, removeFilter, toggleFacet } from "./listState";
import { clearListChoices, listStorageKey, readListChoice, writeListChoice } from "./listStorage";
import { clampPage, pageButtons, pageCount } from "./paginator";
import { pushSearchHistory } from "./searchHistory";
import { suggestTags, tagHint } from "./tagSuggestions";

describe("search history", () => {
  it("keeps the newest five, newest first, without duplicates or blanks", () => {
    let history: string[] = [];
    for (const entry of ["a1", "b2", "c3", " ", "d4", "e5", "f6"])
      history = pushSearchHistory(history, entry);
    expect(history).toEqual(["f6", "e5", "d4", "c3", "b2"]);
    expect(pushSearchHistory(history, " c3 ")).toEqual(["c3", "f6", "e5", "d4", "b2"]);
  });
});

describe("paginator", () => {
  it("counts pages, one at least", () => {
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(10, 10)).toBe(1);
    expect(pageCount(11, 10)).toBe(2);
    expect(pageCount(100_000, 100)).toBe(1000);
  });

  it("shows at most three buttons, a window that slides at the ends", () => {
    expect(pageButtons(0, 1)).toEqual([0]);
    expect(pageButtons(1, 2)).toEqual([0, 1]);
    expect(pageButtons(0, 10)).toEqual([0, 1, 2]);
    expect(pageButtons(5, 10)).toEqual([4, 5, 6]);
    expect(pageButtons(9, 10)).toEqual([7, 8, 9]);
    expect(pageButtons(42, 10)).toEqual([7, 8, 9]);
  });

  it("clamps a page that a shrunken list no longer has", () => {
    expect(clampPage(7, 3)).toBe(2);
    expect(clampPage(-1, 3)).toBe(0);
  });
});

describe("list storage", () => {
  beforeEach(() => localStorage.clear());

  it("keys each choice by the list's prefix", () => {
    expect(listStorageKey("devices", "sort")).toBe("cellfleet.list.devices.sort");
    writeListChoice("devices", "pageSize", 50);
    writeListChoice("events", "pageSize", 100);
    const isNumber = (value: unknown): value is number => typeof value === "number";
    expect(readListChoice("devices", "pageSize", 10, isNumber)).toBe(50);
    expect(readListChoice("events", "pageSize", 10, isNumber)).toBe(100);
    clearListChoices("devices");
    expect(readListChoice("devices", "pageSize", 10, isNumber)).toBe(10);
    expect(readListChoice("events", "pageSize", 10, isNumber)).toBe(100);
  });

  it("falls back on a value that is unreadable or fails its guard", () => {
    localStorage.setItem(listStorageKey("devices", "page"), "{not json");
    const isNumber = (value: unknown): value is number => typeof value === "number";
    expect(readListChoice("devices", "page", 0, isNumber)).toBe(0);
    writeListChoice("devices", "page", "three");
    expect(readListChoice("devices", "page", 0, isNumber)).toBe(0);
  });
});

describe("debounce", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("calls once with the latest value after the wait, not before", () => {
    const fn = vi.fn();
    const debounced = debounce(fn, SEARCH_DEBOUNCE_MS);
    debounced.call("r");
    vi.advanceTimersByTime(100);
    debounced.call("ro");
    vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledExactlyOnceWith("ro");
  });

  it("drops a pending call on cancel", () => {
    const fn = vi.fn();
    const debounced = debounce(fn, SEARCH_DEBOUNCE_MS);
    debounced.call("x");
    debounced.cancel();
    vi.advanceTimersByTime(1000);
    expect(fn).not.toHaveBeenCalled();
  });
});

describe("tag suggestions", () => {
  const frequencies = { north: 3, south: 9, nowhere: 1, office: 5, noon: 3, nord: 7, nova: 2 };

  it("offers at most five, most frequent first, ties by name, skipping chosen ones", () => {
    expect(suggestTags(frequencies, "", [])).toEqual(["south", "nord", "office", "noon", "north"]);
    expect(suggestTags(frequencies, "no", ["nord"])).toEqual(["noon", "north", "nova", "nowhere"]);
  });

  it("hints the best tag starting with the typed text", () => {
    expect(tagHint(["office", "nord", "north"], "NO")).toBe("nord");
    expect(tagHint(["office"], "zz")).toBeNull();
    expect(tagHint(["office"], "")).toBeNull();
  });
});

describe("list state", () => {
  it("lists active filters and removes each one, back to the first page", () => {
    let state: ListState = { ...initialListState(), search: "abc", tags: ["north"], events: "with", page: 4 };
    state = toggleFacet(state, "status", "online");
    expect(state.page).toBe(0);
    const filters = activeFilters(state);
    expect(filters.map((filter) => filter.kind)).toEqual(["search", "tag", "events", "facet"]);
    for (const filter of filters) state = removeFilter({ ...state, page: 3 }, filter);
    expect(activeFilters(state)).toEqual([]);
    expect(state.facets).toEqual({});
    expect(state.page).toBe(0);
  });
});
