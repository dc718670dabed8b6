import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../app/i18n";
import { RegistryPage } from "./RegistryPage";

function renderPage() {
  const router = createMemoryRouter([{ path: "/registry", element: <RegistryPage /> }], {
    initialEntries: ["/registry"],
  });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

// Issue 11: without SMTP the page said only "Operation is not supported", and the key request went
// out while the consent error was on screen.
describe("RegistryPage: sending the key", () => {
  const fetchMock = vi.fn(async () =>
    Response.json({ code: "OPERATION_IS_NOT_SUPPORTED", message: "no smtp" }, { status: 501 }),
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

  it("does not request the key while the consent is missing", async () => {
    renderPage();
    fireEvent.change(screen.getByLabelText(/corporate e-?mail/i), { target: { value: "ceo@acme.io" } });
    fireEvent.click(screen.getByRole("button", { name: /send key/i }));
    expect(await screen.findByText(/consent to the processing of personal data is required/i)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("says e-mail is not configured on this server when the server has no SMTP", async () => {
    renderPage();
    fireEvent.change(screen.getByLabelText(/corporate e-?mail/i), { target: { value: "ceo@acme.io" } });
    fireEvent.click(screen.getByRole("checkbox"));
    fireEvent.click(screen.getByRole("button", { name: /send key/i }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledOnce());
    expect(await screen.findByText(/e-mail is not configured on this server/i)).toBeTruthy();
    expect(screen.queryByText(/operation is not supported/i)).toBeNull();
  });
});

// Issue 27 item 15: the TIN is required and its label said nothing of it; required fields carry the asterisk.
describe("RegistryPage: required fields", () => {
  beforeAll(() => setLocale("en"));
  afterEach(() => cleanup());

  it("marks the TIN, company, name and corporate e-mail as required, and the phone not", () => {
    renderPage();
    for (const label of [/^TIN/, /company/i, /full name/i, /corporate e-?mail/i])
      expect((screen.getByLabelText(label) as HTMLInputElement).required, String(label)).toBe(true);
    expect((screen.getByLabelText(/phone/i) as HTMLInputElement).required).toBe(false);
    expect(screen.getByText("TIN").parentElement?.textContent).toContain("*");
  });
});
