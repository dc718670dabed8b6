import type { Role, SessionUser } from "@cellfleet/contract";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../app/i18n";
import { sessionStore } from "../../app/session/sessionStore";
import { TEST_USER, testDevice } from "../../test/fixtures";
import { DevicePage } from "./DevicePage";
import { EditDevicePage } from "./EditDevicePage";

// The device page and its edit page read the permission table: a view-only operator gets no Edit
// button and no editable form; admins and assistants do; only admins get the delete button.

vi.mock("../../app/realtime/realtime", () => ({
  realtime: { subscribe: () => () => {}, setView: () => {} },
}));

function person(role: Role, patch: Partial<SessionUser> = {}): SessionUser {
  return { ...TEST_USER, role, ...patch };
}

function server() {
  return vi.fn(async (path: string) => {
    if (path.startsWith("/api/device/")) {
      return new Response(JSON.stringify({ device: testDevice(1), collects: [] }));
    }
    if (path.startsWith("/api/events/"))
      return new Response("", { headers: { "Content-Type": "application/x-ndjson" } });
    if (path === "/api/tags/") return new Response(JSON.stringify({ north: 1 }));
    return new Response(JSON.stringify({ code: "BAD_REQUEST", message: path }), { status: 400 });
  });
}

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: "/device/:dev_id", element: <DevicePage /> },
      { path: "/device/edit/:dev_id", element: <EditDevicePage /> },
    ],
    { initialEntries: [path] },
  );
  return render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

beforeAll(() => setLocale("en"));
beforeEach(() => vi.stubGlobal("fetch", server()));
afterEach(() => {
  cleanup();
  sessionStore.clear();
  vi.unstubAllGlobals();
});

describe("the device page's Edit button", () => {
  it.each([
    { name: "an admin", user: person(2), isShown: true },
    { name: "an assistant", user: person(3), isShown: true },
    { name: "a junior assistant", user: person(3, { is_junior: true }), isShown: true },
    { name: "the demo user", user: person(2, { is_demo: true }), isShown: true },
    { name: "an operator", user: person(4), isShown: false },
  ])("for $name: shown $isShown", async ({ user, isShown }) => {
    sessionStore.set(user);
    renderAt("/device/id-1");
    await waitFor(() => expect(screen.queryAllByText("R0001").length).toBeGreaterThan(0));
    expect(screen.queryByRole("link", { name: /edit/i }) !== null).toBe(isShown);
  });
});

describe("the device edit form", () => {
  it("is read-only for an operator: disabled fields, no key field, no Save, no Remove key, no Delete", async () => {
    sessionStore.set(person(4));
    renderAt("/device/edit/id-1");
    const description = await screen.findByLabelText(/description/i);
    expect(description.hasAttribute("disabled")).toBe(true);
    expect(screen.queryByLabelText(/aes key/i)).toBeNull();
    expect(screen.queryByRole("button", { name: /^save$/i })).toBeNull();
    expect(screen.queryByRole("button", { name: /remove/i })).toBeNull();
    expect(screen.queryByRole("button", { name: /delete/i })).toBeNull();
  });

  it("is editable for an assistant, without the admins' delete", async () => {
    sessionStore.set(person(3));
    renderAt("/device/edit/id-1");
    const description = await screen.findByLabelText(/description/i);
    expect(description.hasAttribute("disabled")).toBe(false);
    expect(screen.getByRole("button", { name: /^save$/i })).toBeTruthy();
    expect(screen.queryByRole("button", { name: /delete/i })).toBeNull();
  });

  it("is editable for an admin, with delete", async () => {
    sessionStore.set(person(2));
    renderAt("/device/edit/id-1");
    await screen.findByLabelText(/description/i);
    expect(screen.getByRole("button", { name: /^save$/i })).toBeTruthy();
    expect(screen.getByRole("button", { name: /delete/i })).toBeTruthy();
  });
});
