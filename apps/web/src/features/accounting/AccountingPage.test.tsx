import type { SessionUser } from "@cellfleet/contract";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../app/i18n";
import { sessionStore } from "../../app/session/sessionStore";
import { AccountingPage } from "./AccountingPage";

function user(role: SessionUser["role"], plugins: SessionUser["plugins"] = ["accounting"]): SessionUser {
  return {
    token: "t",
    _id: "u",
    username: "someone",
    role,
    is_junior: false,
    name: "Someone",
    domain_name: role === 1 ? null : "acme",
    plugins,
    factory_password: false,
    password_expire_date: null,
    email: null,
    is_demo: false,
  };
}

/** Answers every list call with an empty list, as the server would for a fresh system. */
function stubLists() {
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => Response.json({ items: [], total: 0 })),
  );
}

function renderHub(role: SessionUser["role"], plugins?: SessionUser["plugins"]) {
  sessionStore.set(user(role, plugins));
  const router = createMemoryRouter([{ path: "/accounting", element: <AccountingPage /> }], {
    initialEntries: ["/accounting"],
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe("the accounting hub", () => {
  beforeAll(() => setLocale("en"));
  afterEach(() => {
    cleanup();
    sessionStore.clear();
    vi.unstubAllGlobals();
  });

  it("shows a superuser every section", async () => {
    stubLists();
    renderHub(1);
    for (const name of ["domains", "superusers", "users", "policies", "logs", "jobs"]) {
      expect(screen.getByTestId(`hub-${name}`)).toBeTruthy();
    }
    // Superusers have no domain settings.
    expect(screen.queryByTestId("hub-settings")).toBeNull();
    await waitFor(() => expect(screen.getAllByText("0").length).toBeGreaterThan(0));
  });

  it("shows an admin users, policies and the log, but no domains or superusers", () => {
    stubLists();
    renderHub(2);
    expect(screen.getByTestId("hub-users")).toBeTruthy();
    expect(screen.getByTestId("hub-policies")).toBeTruthy();
    expect(screen.getByTestId("hub-logs")).toBeTruthy();
    expect(screen.getByTestId("hub-jobs")).toBeTruthy();
    // The domain's settings are reached from the hub too (issue 27), not only from the user menu.
    expect(screen.getByTestId("hub-settings").getAttribute("href")).toBe("/settings");
    expect(screen.queryByTestId("hub-domains")).toBeNull();
    expect(screen.queryByTestId("hub-superusers")).toBeNull();
  });

  it("hides the policies from an admin without the accounting plugin", () => {
    stubLists();
    renderHub(2, []);
    expect(screen.getByTestId("hub-users")).toBeTruthy();
    expect(screen.queryByTestId("hub-policies")).toBeNull();
  });

  it("shows a helper only the users", () => {
    stubLists();
    renderHub(3);
    expect(screen.getByTestId("hub-users")).toBeTruthy();
    expect(screen.queryByTestId("hub-policies")).toBeNull();
    expect(screen.queryByTestId("hub-logs")).toBeNull();
    expect(screen.queryByTestId("hub-jobs")).toBeNull();
  });

  it("tells an operator there is nothing to administer", () => {
    stubLists();
    renderHub(4);
    expect(screen.getByText(/no administration sections/i)).toBeTruthy();
  });
});
