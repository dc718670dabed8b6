import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { setLocale } from "../../app/i18n";
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
