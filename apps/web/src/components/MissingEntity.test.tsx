import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { apiRequest } from "../app/api/http";
import { setLocale } from "../app/i18n";
import { messageStore } from "../app/messages/messageStore";
import { sessionStore } from "../app/session/sessionStore";
import { TEST_USER } from "../test/fixtures";
import { QueryState } from "./QueryState";

// Issue 11: a missing device's page said "Server error (/api/device/…): Device not found" with Retry.
function DeviceProbe() {
  const query = useQuery({
    queryKey: ["device", "gone"],
    queryFn: ({ signal }) => apiRequest("POST /api/device/{dev_id}", { params: { dev_id: "gone" }, signal }),
    retry: false,
  });
  return <QueryState query={query}>{() => <p>device</p>}</QueryState>;
}

function renderAt(path: string) {
  const client = new QueryClient();
  const router = createMemoryRouter([{ path: "/device/:dev_id", element: <DeviceProbe /> }], {
    initialEntries: [path],
  });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe("a missing entity (issue 11)", () => {
  beforeAll(() => setLocale("en"));
  beforeEach(() => {
    sessionStore.set(TEST_USER);
    vi.stubGlobal(
      "fetch",
      vi.fn(async () =>
        Response.json({ code: "DEVICE_NOT_FOUND", message: "Device not found" }, { status: 404 }),
      ),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("says the device does not exist and offers the way back, with no path, retry or message", async () => {
    const before = messageStore.get().length;
    renderAt("/device/gone");
    const missing = await screen.findByTestId("entity-missing");
    expect(missing.textContent).toContain("Device not found");
    expect(missing.textContent).not.toContain("/api/");
    expect(screen.queryByText("Retry")).toBeNull();
    expect(screen.getByRole("link", { name: "Go back" }).getAttribute("href")).toBe("/dashboard");
    expect(messageStore.get().length).toBe(before);
  });
});
