import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { currentLocale, setLocale } from "../i18n";
import { clearInfoMessages, pushInfoMessage } from "../messages/messageStore";
import { sessionStore } from "../session/sessionStore";
import { themeModeStore } from "../themeMode";
import { SignedOutShell } from "./SignedOutShell";

function renderShell() {
  const router = createMemoryRouter(
    [{ element: <SignedOutShell />, children: [{ path: "/login", element: <p>login page</p> }] }],
    { initialEntries: ["/login"] },
  );
  render(<RouterProvider router={router} />);
}

// The visitor's frame without MUI (ADR 018, round 4) keeps what the MUI shell gave a visitor: the
// page through the route guard, the welcome drawer, the language and theme toggles, info messages.
describe("SignedOutShell", () => {
  beforeAll(() => {
    sessionStore.clear();
    setLocale("en");
  });
  afterEach(() => {
    cleanup();
    clearInfoMessages();
  });

  it("shows the page, the welcome text and the footer", () => {
    renderShell();
    expect(screen.getByText("login page")).toBeTruthy();
    expect(screen.getByTestId("nav-drawer").textContent).toMatch(/welcome/i);
    expect(document.querySelector("footer")?.textContent).toContain(String(new Date().getFullYear()));
  });

  it("opens the user menu on its first item; Escape closes it and gives focus back", () => {
    renderShell();
    const button = screen.getByRole("button", { name: /user menu/i });
    fireEvent.click(button);
    expect(screen.getByRole("menu")).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByTestId("toggle-language"));
    fireEvent.keyDown(screen.getByRole("menu"), { key: "ArrowDown" });
    expect(document.activeElement).toBe(screen.getByTestId("toggle-theme"));
    fireEvent.keyDown(screen.getByRole("menu"), { key: "Escape" });
    expect(screen.queryByRole("menu")).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it("on a phone, keeps focus in the open menu drawer and gives it back to the menu button on Escape", () => {
    const narrow = vi.spyOn(window, "matchMedia").mockImplementation(
      (query) =>
        ({
          matches: false,
          media: query,
          addEventListener: () => undefined,
          removeEventListener: () => undefined,
        }) as unknown as MediaQueryList,
    );
    try {
      renderShell();
      const button = screen.getByRole("button", { name: /open menu/i });
      button.focus();
      fireEvent.click(button);
      const drawer = screen.getByRole("dialog");
      expect(document.activeElement).toBe(drawer);
      fireEvent.keyDown(document.activeElement ?? document.body, { key: "Tab" });
      expect(document.activeElement).toBe(drawer);
      fireEvent.keyDown(document.activeElement ?? document.body, { key: "Tab", shiftKey: true });
      expect(document.activeElement).toBe(drawer);
      fireEvent.keyDown(window, { key: "Escape" });
      expect(drawer.closest(".so-modal")?.hasAttribute("hidden")).toBe(true);
      expect(document.activeElement).toBe(button);
    } finally {
      narrow.mockRestore();
    }
  });

  it("switches the theme (marking <html data-theme>) and the language from the menu", () => {
    renderShell();
    const before = themeModeStore.get();
    fireEvent.click(screen.getByRole("button", { name: /user menu/i }));
    fireEvent.click(screen.getByTestId("toggle-theme"));
    expect(themeModeStore.get()).not.toBe(before);
    expect(document.documentElement.dataset.theme).toBe(themeModeStore.get());
    fireEvent.click(screen.getByRole("button", { name: /user menu/i }));
    fireEvent.click(screen.getByTestId("toggle-language"));
    expect(currentLocale()).toBe("ru");
    act(() => setLocale("en"));
    if (themeModeStore.get() !== before) themeModeStore.toggle();
  });

  it("shows an info message as an alert until it is closed", () => {
    renderShell();
    act(() => pushInfoMessage({ level: "critical", text: "Session expired" }));
    expect(screen.getByTestId("info-message").textContent).toContain("Session expired");
    expect(screen.getByTestId("info-message").getAttribute("role")).toBe("alert");
    fireEvent.click(screen.getByRole("button", { name: /close/i }));
    expect(screen.queryByTestId("info-message")).toBeNull();
  });
});
