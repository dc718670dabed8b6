import type { SessionUser } from "@cellfleet/contract";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../app/i18n";
import { sessionStore } from "../../app/session/sessionStore";
import { testDevice } from "../../test/fixtures";
import { DashboardPage } from "./DashboardPage";

// The socket is replaced by a hub the test drives: handlers by message type.
const handlers = vi.hoisted(() => new Map<string, Set<(message: unknown) => void>>());
// The views the page told the socket, by the component that set them.
const views = vi.hoisted(() => new Map<object, unknown>());
vi.mock("../../app/realtime/realtime", () => ({
  realtime: {
    setView(owner: object, view: unknown) {
      if (view) views.set(owner, view);
      else views.delete(owner);
    },
    subscribe(type: string, handler: (message: unknown) => void) {
      const set = handlers.get(type) ?? new Set();
      set.add(handler);
      handlers.set(type, set);
      return () => set.delete(handler);
    },
  },
}));
const emit = (type: string, message: unknown) => {
  for (const handler of handlers.get(type) ?? []) handler(message);
};

const admin: SessionUser = {
  token: "t",
  _id: "u",
  username: "admin",
  role: 2,
  is_junior: false,
  name: "Ada",
  domain_name: "acme",
  plugins: [],
  factory_password: false,
  password_expire_date: null,
  email: null,
  is_demo: false,
};

const totals = { pending: 15, online: 0, warning: 0, critical: 0, total: 15 };
const facets = {
  status: { pending: 15 },
  signal: { excellent: 15 },
  network_mode: [{ value: "LTE", count: 15 }],
  model: [{ value: "RUT955", count: 15 }],
  version: [{ value: "7.1", count: 15 }],
  backups: { with: 0, without: 15 },
  journals: { with: 0, without: 15 },
  file_type: [],
  tags: [{ value: "north", count: 15 }],
  events: { with: 0, without: 15 },
};

function ndjson(lines: unknown[]): Response {
  return new Response(lines.map((line) => JSON.stringify(line)).join("\n"), {
    headers: { "Content-Type": "application/x-ndjson" },
  });
}

let listBodies: Record<string, unknown>[] = [];
let totalsCalls = 0;
/** While set, the list's answer waits for it. */
let listHeld: Promise<void> | null = null;

function server() {
  return vi.fn(async (path: string, init: RequestInit) => {
    const body = JSON.parse(String(init.body ?? "{}"));
    if (path === "/api/devices/") {
      listBodies.push(body);
      if (listHeld) await listHeld;
      // A server that ignores the page size must still not make the table longer than a page.
      const rows = Array.from({ length: 15 }, (_, index) => testDevice(index + 1));
      return ndjson([{ total: 15, page: 0, size: body.size }, ...rows, { facets }]);
    }
    if (path === "/api/dashboard/") {
      totalsCalls++;
      return new Response(JSON.stringify(totals));
    }
    if (path === "/api/tags/") return new Response(JSON.stringify({ north: 15 }));
    return new Response(JSON.stringify({ code: "BAD_REQUEST", message: path }), { status: 400 });
  });
}

function renderDashboard() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: "/dashboard", element: <DashboardPage /> }], {
    initialEntries: ["/dashboard"],
  });
  return render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe("DashboardPage", () => {
  beforeAll(() => setLocale("en"));
  beforeEach(() => {
    localStorage.clear();
    sessionStore.set(admin);
    listBodies = [];
    totalsCalls = 0;
    listHeld = null;
    vi.stubGlobal("fetch", server());
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("renders the streamed rows, never more than the page size, with totals and labels", async () => {
    renderDashboard();
    await waitFor(() => expect(screen.getAllByTestId("device-row")).toHaveLength(10));
    expect(listBodies[0]).toMatchObject({
      page: 0,
      size: 10,
      facets: true,
      sort: { field: "ident", order: "asc" },
    });
    expect(screen.getByTestId("total-pending").textContent).toContain("15");
    expect(screen.getAllByText("Excellent").length).toBeGreaterThan(0);
    expect(screen.getByRole("link", { name: "R0001" }).getAttribute("href")).toBe("/device/id-1");
  });

  it("patches a row from the socket without reading the list again", async () => {
    renderDashboard();
    await waitFor(() => expect(screen.getAllByTestId("device-row")).toHaveLength(10));
    const before = listBodies.length;
    act(() =>
      emit("devices", {
        type: "devices",
        action: "update",
        content: [testDevice(1, { status: "online", time: Date.now() })],
      }),
    );
    const row = screen.getAllByTestId("device-row")[0];
    await waitFor(() =>
      expect(row.querySelector("[data-status]")?.getAttribute("data-status")).toBe("online"),
    );
    expect(row.textContent).toContain("just now");
    expect(listBodies.length).toBe(before);
    // Totals are re-read (once) within a second.
    const totalsBefore = totalsCalls;
    await waitFor(() => expect(totalsCalls).toBe(totalsBefore + 1), { timeout: 2000 });
  });

  it("keeps a push that came while the list was read: the answer, read before it, does not undo it", async () => {
    let release: () => void = () => {};
    listHeld = new Promise((resolve) => {
      release = resolve;
    });
    renderDashboard();
    await waitFor(() => expect(listBodies).toHaveLength(1));
    act(() =>
      emit("devices", { type: "devices", action: "update", content: [{ _id: "id-1", status: "critical" }] }),
    );
    release();
    await waitFor(() => expect(screen.getAllByTestId("device-row")).toHaveLength(10));
    const row = screen.getAllByTestId("device-row")[0];
    expect(row.querySelector("[data-status]")?.getAttribute("data-status")).toBe("critical");
    expect(
      screen.getAllByTestId("device-row")[1].querySelector("[data-status]")?.getAttribute("data-status"),
    ).not.toBe("critical");
  });

  it("tells the socket the rows on screen, and merges a push of a row's changed fields", async () => {
    renderDashboard();
    await waitFor(() => expect(screen.getAllByTestId("device-row")).toHaveLength(10));
    const ids = Array.from({ length: 10 }, (_, index) => `id-${index + 1}`);
    await waitFor(() => expect([...views.values()]).toEqual([{ kind: "devices", ids }]));
    // Only the fields that changed (ADR 035): the row keeps the others.
    act(() =>
      emit("devices", {
        type: "devices",
        action: "update",
        content: [{ _id: "id-2", status: "critical" }],
        totals: true,
      }),
    );
    const row = screen.getAllByTestId("device-row")[1];
    await waitFor(() =>
      expect(row.querySelector("[data-status]")?.getAttribute("data-status")).toBe("critical"),
    );
    expect(screen.getByRole("link", { name: "R0002" })).toBeTruthy();
    cleanup();
    expect(views.size).toBe(0);
  });

  it("remembers the page size per list and asks the server for it", async () => {
    renderDashboard();
    await waitFor(() => expect(screen.getAllByTestId("device-row")).toHaveLength(10));
    act(() => screen.getByRole("button", { name: "Page 2" }).click());
    await waitFor(() => expect(listBodies.at(-1)).toMatchObject({ page: 1 }));
    expect(JSON.parse(localStorage.getItem("cellfleet.list.dashboard.devices.page") ?? "null")).toBe(1);
  });
});
