import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { setLocale } from "../../../app/i18n";
import { CommandStatusChip } from "./CommandStatusChip";

describe("CommandStatusChip", () => {
  beforeAll(() => setLocale("en"));
  afterEach(cleanup);

  it("says 'partly completed' with the counts when a failed command completed on some routers (issue 27)", () => {
    render(
      <CommandStatusChip command={{ status: "failed", counts: { completed: 9, failed: 1 }, total: 10 }} />,
    );
    const chip = screen.getByTestId("command-status");
    expect(chip.textContent).toBe("Partly completed: 9 of 10");
    expect(chip.dataset.status).toBe("partly_completed");
    expect(chip.className).toMatch(/colorWarning/);
  });

  it("keeps a red 'Failed' when nothing completed", () => {
    render(<CommandStatusChip command={{ status: "failed", counts: { failed: 3 }, total: 3 }} />);
    const chip = screen.getByTestId("command-status");
    expect(chip.textContent).toBe("Failed");
    expect(chip.className).toMatch(/colorError/);
  });
});
