import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../app/i18n";
import { sessionStore } from "../../app/session/sessionStore";
import { TEST_USER } from "../../test/fixtures";
import { PageTitle } from "../PageTitle";
import { ListCard } from "./ListCard";

// Issue 11: "Domains / Domains" — the page's heading and its list card's title said the same.
describe("ListCard under a page title", () => {
  beforeAll(() => setLocale("en"));
  afterEach(cleanup);

  it("leaves out a title that repeats the page's heading, keeping the count", () => {
    render(
      <>
        <PageTitle>Domains</PageTitle>
        <ListCard title="domains" subtitle="Total: 1">
          <p>rows</p>
        </ListCard>
      </>,
    );
    expect(screen.getAllByText(/^domains$/i)).toHaveLength(1);
    expect(screen.queryByTestId("list-card-title")).toBeNull();
    expect(screen.getByText("Total: 1")).toBeTruthy();
  });

  it("keeps a title that says something else", () => {
    render(
      <>
        <PageTitle>Events</PageTitle>
        <ListCard title="Events of the domain">
          <p>rows</p>
        </ListCard>
      </>,
    );
    expect(screen.getByTestId("list-card-title").textContent).toBe("Events of the domain");
  });
});

describe("ListCard's CSV export", () => {
  beforeAll(() => setLocale("en"));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("downloads the section's export with the list's filters, saved under the section's name", async () => {
    sessionStore.set(TEST_USER);
    const fetch = vi.fn(
      async () => new Response("create_time\r\n", { headers: { "Content-Type": "text/csv" } }),
    );
    vi.stubGlobal("fetch", fetch);
    URL.createObjectURL = vi.fn(() => "blob:x");
    URL.revokeObjectURL = vi.fn();
    const saved: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(this.download);
    });
    render(
      <ListCard title="Events" csvExport={{ section: "events", body: { unread: true } }}>
        <p>rows</p>
      </ListCard>,
    );
    fireEvent.click(screen.getByRole("button", { name: "Download CSV" }));
    await waitFor(() => expect(saved).toEqual(["events.csv"]));
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/events/export");
    expect(JSON.parse(String(init.body))).toMatchObject({ unread: true });
    click.mockRestore();
  });
});
