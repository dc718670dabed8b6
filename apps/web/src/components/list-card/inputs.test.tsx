import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../app/i18n";
import { readListChoice } from "./listStorage";
import { SearchBox } from "./SearchBox";
import { TagsInput } from "./TagsInput";

describe("SearchBox", () => {
  beforeAll(() => setLocale("en"));
  beforeEach(() => localStorage.clear());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it("takes Ctrl+F from the browser and focuses itself", () => {
    render(<SearchBox prefix="t" value="" onChange={() => undefined} />);
    const event = new KeyboardEvent("keydown", { key: "f", ctrlKey: true, cancelable: true });
    act(() => {
      window.dispatchEvent(event);
    });
    expect(event.defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(screen.getByRole("combobox", { name: "Search" }));
  });

  it("reports the text 150 ms after the last keystroke and remembers it on Enter", () => {
    vi.useFakeTimers();
    const onChange = vi.fn();
    render(<SearchBox prefix="t" value="" onChange={onChange} />);
    const input = screen.getByRole("combobox", { name: "Search" });
    fireEvent.change(input, { target: { value: "rut" } });
    act(() => vi.advanceTimersByTime(149));
    expect(onChange).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onChange).toHaveBeenLastCalledWith("rut");
    fireEvent.keyDown(input, { key: "Enter" });
    const isStrings = (value: unknown): value is string[] => Array.isArray(value);
    expect(readListChoice("t", "history", [], isStrings)).toEqual(["rut"]);
  });
});

describe("TagsInput", () => {
  beforeAll(() => setLocale("en"));
  afterEach(cleanup);

  it("adds a typed tag on Enter and refuses an invalid one with the contract's message", () => {
    const onChange = vi.fn();
    render(<TagsInput value={[]} onChange={onChange} />);
    const input = screen.getByRole("combobox", { name: "Tags" });
    fireEvent.change(input, { target: { value: "ab" } });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByText(/3 or more|at least 3/i)).toBeTruthy();
    fireEvent.change(input, { target: { value: "north" } });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(onChange).toHaveBeenLastCalledWith(["north"]);
  });

  it("accepts the hint, the most frequent tag starting with the text, on Tab", () => {
    const onChange = vi.fn();
    render(<TagsInput value={[]} onChange={onChange} frequencies={{ north: 2, nordic: 9, south: 30 }} />);
    const input = screen.getByRole("combobox", { name: "Tags" });
    fireEvent.change(input, { target: { value: "no" } });
    expect(screen.getByText("Tab: nordic")).toBeTruthy();
    fireEvent.keyDown(input, { key: "Tab" });
    expect(onChange).toHaveBeenLastCalledWith(["nordic"]);
  });
});
