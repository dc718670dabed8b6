import type { SessionUser } from "@cellfleet/contract";
import { act, cleanup, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setLocale } from "../i18n";
import { clearInfoMessages, messageStore } from "../messages/messageStore";
import { sessionStore } from "../session/sessionStore";
import { RouteGuard } from "./RouteGuard";

const operator: SessionUser = {
  token: "t",
  _id: "u",
  username: "op",
  role: 4,
  is_junior: false,
  name: "Olga",
  domain_name: "acme",
  plugins: [],
  factory_password: false,
  password_expire_date: null,
  email: null,
  is_demo: false,
};

function renderAt(path: string) {
  const page = (name: string) => <p>page {name}</p>;
  const router = createMemoryRouter(
    [
      {
        element: <RouteGuard />,
        children: [
          { path: "/login", element: page("login") },
          { path: "/dashboard", element: page("dashboard") },
          { path: "/events", element: page("events") },
          { path: "/templates", element: page("templates") },
          { path: "/profile", element: page("profile") },
          { path: "*", element: null },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const texts = () => messageStore.get().map((message) => message.text);

describe("RouteGuard", () => {
  beforeAll(() => setLocale("en"));
  beforeEach(() => clearInfoMessages());
  afterEach(() => {
    cleanup();
    sessionStore.clear();
  });

  it("sends an anonymous visitor to /login", async () => {
    const router = renderAt("/dashboard");
    expect(await screen.findByText("page login")).toBeTruthy();
    expect(router.state.location.pathname).toBe("/login");
  });

  it("keeps an operator on the page it was on when it tries /templates", async () => {
    sessionStore.set(operator);
    const router = renderAt("/events");
    expect(await screen.findByText("page events")).toBeTruthy();
    await act(() => router.navigate("/templates"));
    expect(await screen.findByText("page events")).toBeTruthy();
    expect(router.state.location.pathname).toBe("/events");
    expect(texts()).toEqual(["Access denied"]);
  });

  it("sends an operator who opens /templates first to /dashboard with 'Access denied'", async () => {
    sessionStore.set(operator);
    const router = renderAt("/templates");
    expect(await screen.findByText("page dashboard")).toBeTruthy();
    expect(router.state.location.pathname).toBe("/dashboard");
    expect(texts()).toEqual(["Access denied"]);
  });

  it("holds a factory-password user on /profile", async () => {
    sessionStore.set({ ...operator, factory_password: true });
    const router = renderAt("/dashboard");
    expect(await screen.findByText("page profile")).toBeTruthy();
    expect(router.state.location.pathname).toBe("/profile");
    expect(texts()).toEqual(["Access denied"]);
  });

  it("sends a signed-in user to /login when the session ends", async () => {
    sessionStore.set(operator);
    const router = renderAt("/events");
    expect(await screen.findByText("page events")).toBeTruthy();
    act(() => sessionStore.clear());
    expect(await screen.findByText("page login")).toBeTruthy();
    expect(router.state.location.pathname).toBe("/login");
  });
});
