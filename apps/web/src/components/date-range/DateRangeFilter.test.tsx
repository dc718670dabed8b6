import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../app/i18n";
import { DateRangeFilter } from "./DateRangeFilter";
import { fromDateInput } from "./dateRange";

// Issue 11: the custom range's days followed the browser's locale (mm/dd/yyyy) in a Russian console.
describe("DateRangeFilter days in the interface language", () => {
  afterEach(cleanup);

  it("takes dd.mm.yyyy in Russian and shows the chosen day so", () => {
    act(() => setLocale("ru"));
    const onChange = vi.fn();
    render(<DateRangeFilter value={{ tab: "custom", since: null, until: null }} onChange={onChange} />);
    const [from] = screen.getAllByTestId("day-field") as HTMLInputElement[];
    expect(from.placeholder).toBe("дд.мм.гггг");
    fireEvent.change(from, { target: { value: "05.11.2025" } });
    expect(onChange).toHaveBeenLastCalledWith(
      expect.objectContaining({ since: fromDateInput("2025-11-05") }),
    );
    expect(from.value).toBe("05.11.2025");
  });
});
