import { DELETE_CONFIRM_MS } from "@cellfleet/contract";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../app/i18n";
import { DeleteButton } from "./DeleteButton";

describe("DeleteButton", () => {
  beforeAll(() => setLocale("en"));
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it("arms on the first click and deletes on a second click within 2 s", () => {
    const onDelete = vi.fn();
    render(<DeleteButton onDelete={onDelete} />);
    fireEvent.click(screen.getByRole("button", { name: "Delete" }));
    expect(onDelete).not.toHaveBeenCalled();
    const armed = screen.getByRole("button", { name: "Tap again" });
    act(() => vi.advanceTimersByTime(DELETE_CONFIRM_MS - 1));
    fireEvent.click(armed);
    expect(onDelete).toHaveBeenCalledOnce();
  });

  it("disarms by itself after 2 s, so a late click only arms again", () => {
    const onDelete = vi.fn();
    render(<DeleteButton onDelete={onDelete} />);
    fireEvent.click(screen.getByRole("button", { name: "Delete" }));
    act(() => vi.advanceTimersByTime(DELETE_CONFIRM_MS));
    fireEvent.click(screen.getByRole("button", { name: "Delete" }));
    expect(onDelete).not.toHaveBeenCalled();
    expect(screen.getByRole("button", { name: "Tap again" })).toBeTruthy();
  });
});
