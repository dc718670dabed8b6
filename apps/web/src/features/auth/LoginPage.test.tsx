import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../app/i18n";
import { LoginPage } from "./LoginPage";

function renderPage() {
  const router = createMemoryRouter([{ path: "/login", element: <LoginPage /> }], {
    initialEntries: ["/login"],
  });
  render(<RouterProvider router={router} />);
}

// The login form lost its form library (ADR 018): it still refuses blank fields on submit, says so
// under each field, and sends the trimmed username once both are filled.
describe("LoginPage: the form", () => {
  const fetchMock = vi.fn(async () =>
    Response.json({ code: "INVALID_CREDENTIALS", message: "no" }, { status: 401 }),
  );
  beforeAll(() => setLocale("en"));
  beforeEach(() => {
    fetchMock.mockClear();
    vi.stubGlobal("fetch", fetchMock);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("refuses blank fields without a request, then clears an error as the field is filled", async () => {
    renderPage();
    const username = screen.getByLabelText(/username/i);
    const password = screen.getByLabelText(/^password/i);
    fireEvent.change(username, { target: { value: "   " } });
    fireEvent.click(screen.getByRole("button", { name: /^sign in$/i }));
    await waitFor(() => expect(username.getAttribute("aria-invalid")).toBe("true"));
    expect(password.getAttribute("aria-invalid")).toBe("true");
    expect(document.activeElement).toBe(username);
    expect(username.getAttribute("aria-describedby")).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.change(username, { target: { value: " admin " } });
    await waitFor(() => expect(username.getAttribute("aria-invalid")).toBe("false"));
    expect(password.getAttribute("aria-invalid")).toBe("true");
    fireEvent.change(password, { target: { value: "secret" } });
    fireEvent.click(screen.getByRole("button", { name: /^sign in$/i }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({ username: "admin", password: "secret" });
  });
});
