import type { SessionUser } from "@cellfleet/contract";
import { cleanup, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import "../i18n";
import { sessionStore } from "../session/sessionStore";
import { PasswordExpiryBanner } from "./PasswordExpiryBanner";

const DAY_MS = 24 * 60 * 60 * 1000;

function userExpiringIn(ms: number | null): SessionUser {
  return {
    token: "t",
    _id: "u",
    username: "a",
    role: 2,
    is_junior: false,
    name: "A",
    domain_name: null,
    plugins: [],
    factory_password: false,
    password_expire_date: ms === null ? null : Date.now() + ms,
    email: null,
    is_demo: false,
  };
}

function renderBanner() {
  const router = createMemoryRouter([{ path: "/", element: <PasswordExpiryBanner /> }]);
  render(<RouterProvider router={router} />);
}

describe("PasswordExpiryBanner", () => {
  afterEach(() => {
    cleanup();
    sessionStore.clear();
  });

  it("warns when under 15 days of the password remain", () => {
    sessionStore.set(userExpiringIn(3 * DAY_MS + 1000));
    renderBanner();
    expect(screen.getByTestId("password-expiry-banner").textContent).toContain("3");
  });

  it("stays hidden with 15 days or more left, or no expiry at all", () => {
    sessionStore.set(userExpiringIn(16 * DAY_MS));
    renderBanner();
    expect(screen.queryByTestId("password-expiry-banner")).toBeNull();
    cleanup();
    sessionStore.set(userExpiringIn(null));
    renderBanner();
    expect(screen.queryByTestId("password-expiry-banner")).toBeNull();
  });
});
