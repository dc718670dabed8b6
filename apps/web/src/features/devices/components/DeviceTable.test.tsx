import type { Device, DeviceStatus } from "@cellfleet/contract";
import { act, cleanup, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../../app/i18n";
import { testDevice } from "../../../test/fixtures";
import { DeviceTable } from "./DeviceTable";
import { StatusTotals } from "./StatusTotals";

// Counts how often a row renders: relativeTimeText is called once per row render.
const labels = vi.hoisted(() => ({ timeTexts: 0 }));
vi.mock("../../../components/labels", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../../components/labels")>();
  return {
    ...original,
    relativeTimeText: (...args: Parameters<typeof original.relativeTimeText>) => {
      labels.timeTexts++;
      return original.relativeTimeText(...args);
    },
  };
});

const NOW = Date.UTC(2026, 10, 21, 15, 0, 0);

/** An online device last heard from two hours before NOW, tagged north and pumps. */
function device(n: number, patch: Partial<Device> = {}): Device {
  return testDevice(n, { tags: ["north", "pumps"], time: NOW - 2 * 3_600_000, status: "online", ...patch });
}

function renderTable(rows: Device[]) {
  const view = (next: Device[]) => (
    <MemoryRouter>
      <DeviceTable rows={next} pageSize={100} sort={null} onSort={() => undefined} />
    </MemoryRouter>
  );
  const result = render(view(rows));
  return { ...result, rerenderRows: (next: Device[]) => result.rerender(view(next)) };
}

describe("DeviceTable: the connection beside the status (issue 27 item 3)", () => {
  beforeAll(() => setLocale("en"));
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it("marks a router the gateway lost while its status is still online, and a connected one gone quiet", () => {
    vi.useFakeTimers({ now: NOW, toFake: ["Date"] });
    const since = NOW - 2 * 60_000;
    renderTable([
      device(1, { time: NOW - 3 * 60_000, connected: false, connection_time: since }),
      device(2, { connected: true, connection_time: since }),
      device(3, { status: "critical", connected: true, connection_time: since }),
      device(4, { connected: null }),
    ]);
    const rows = screen.getAllByTestId("device-row");
    const lost = within(rows[0]).getByTestId("connection");
    expect(within(rows[0]).getByTestId("status-chip").dataset.status).toBe("online");
    expect(lost.dataset.connected).toBe("disconnected");
    expect(lost.textContent).toBe("Disconnected");
    expect(lost.getAttribute("title")).toContain("The gateway lost the connection just now");
    expect(within(rows[1]).queryByTestId("connection")).toBeNull();
    expect(within(rows[2]).getByTestId("connection").dataset.connected).toBe("connected");
    expect(within(rows[3]).queryByTestId("connection")).toBeNull();
  });
});

describe("DeviceTable: WAN beside the status (issue 11)", () => {
  beforeAll(() => setLocale("en"));
  afterEach(cleanup);

  it("marks an online router whose modems are all offline as WAN down, and only that one", () => {
    renderTable([device(1, { wan_up: false }), device(2, { wan_up: true }), device(3, { wan_up: null })]);
    const rows = screen.getAllByTestId("device-row");
    expect(within(rows[0]).getByTestId("wan-down").textContent).toBe("WAN down");
    expect(within(rows[0]).getByTestId("status-chip").dataset.status).toBe("online");
    expect(within(rows[1]).queryByTestId("wan-down")).toBeNull();
    expect(within(rows[2]).queryByTestId("wan-down")).toBeNull();
  });

  it("shows the time of day under 'just now', so two recent contacts can be told apart", () => {
    vi.useFakeTimers({ now: NOW, toFake: ["Date"] });
    try {
      renderTable([device(1, { time: NOW - 2 * 60_000 }), device(2, { time: NOW - 20 * 60_000 })]);
      const clocks = screen.getAllByTestId("time-clock").map((clock) => clock.textContent);
      expect(clocks).toHaveLength(2);
      expect(clocks[0]).not.toBe(clocks[1]);
      expect(screen.getAllByTestId("device-row")[0].textContent).toContain("just now");
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("DeviceTable rows", () => {
  beforeAll(() => setLocale("en"));
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it("show every column with the hover texts as titles, and no MUI tooltip", () => {
    vi.useFakeTimers({ now: NOW, toFake: ["Date"] });
    renderTable([device(1, { events: 1234, status: "critical" })]);
    const row = screen.getByTestId("device-row");
    expect(row.getAttribute("data-ident")).toBe("R0001");
    expect(within(row).getByRole("link", { name: "R0001" }).getAttribute("href")).toBe("/device/id-1");
    expect(row.textContent).toContain("router 1");
    expect(row.textContent).toContain("RUT955");
    const chip = within(row).getByTestId("status-chip");
    expect(chip.getAttribute("data-status")).toBe("critical");
    expect(chip.textContent).toBe("Critical");
    expect(within(row).getByText("Excellent").getAttribute("title")).toBe("CSQ 22");
    expect(within(row).getByText("north")).toBeTruthy();
    expect(within(row).getByText("pumps")).toBeTruthy();
    expect(within(row).getByText("1,234")).toBeTruthy();
    const time = within(row).getByText("2 h ago");
    expect(time.getAttribute("title")).toBe(new Date(NOW - 2 * 3_600_000).toLocaleString("en"));
    expect(document.querySelector(".MuiTooltip-tooltip, [role=tooltip]")).toBeNull();
  });

  it("leave out the signal's title without a CSQ and say 'never' without a contact", () => {
    renderTable([device(1, { time: null, signal: { csq: null, quality: "unknown" } })]);
    const row = screen.getByTestId("device-row");
    expect(within(row).getByText("Unknown").hasAttribute("title")).toBe(false);
    expect(row.textContent).toContain("never");
  });

  it("render again only the rows whose device object changed", () => {
    const rows = [device(1), device(2), device(3)];
    const { rerenderRows } = renderTable(rows);
    labels.timeTexts = 0;
    act(() => rerenderRows([rows[0] as Device, device(2, { status: "warning" }), rows[2] as Device]));
    expect(labels.timeTexts).toBe(1);
    const statuses = screen.getAllByTestId("status-chip").map((chip) => chip.getAttribute("data-status"));
    expect(statuses).toEqual(["online", "warning", "online"]);
  });
});

describe("StatusTotals", () => {
  const totals = { critical: 15_000, warning: 10_000, pending: 5000, online: 70_000, total: 100_000 };
  const texts = () =>
    (["critical", "warning", "pending", "online"] as DeviceStatus[]).map(
      (status) => screen.getByTestId(`total-${status}`).textContent,
    );
  afterEach(() => {
    cleanup();
    setLocale("en");
  });

  it("groups the digits of the counts by the interface language", () => {
    setLocale("en");
    render(<StatusTotals totals={totals} selected={[]} onToggle={() => undefined} />);
    expect(texts()).toEqual(["Critical15,000", "Warning10,000", "Pending5,000", "Online70,000"]);
    cleanup();
    setLocale("ru");
    render(<StatusTotals totals={totals} selected={[]} onToggle={() => undefined} />);
    expect(texts()[3]).toBe("В сети70\u00a0000");
  });
});
