import type { DomainListItem, Job, Role, SessionUser } from "@cellfleet/contract";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../../app/i18n";
import { sessionStore } from "../../../app/session/sessionStore";
import { TEST_USER } from "../../../test/fixtures";
import { JobsPage } from "./JobsPage";

function person(role: Role): SessionUser {
  return { ...TEST_USER, role, domain_name: role === 1 ? null : "acme" };
}

function job(id: string, patch: Partial<Job> = {}): Job {
  return {
    _id: id,
    kind: "mail.send",
    domain_id: "d1",
    state: "dead",
    attempts: 8,
    max_attempts: 8,
    last_error: "550 5.1.1 <nobody@example.test>: Recipient address rejected",
    dedupe_key: null,
    locked_by: null,
    run_at: Date.UTC(2026, 0, 2, 10, 0),
    create_time: Date.UTC(2026, 0, 2, 9, 0),
    finish_time: Date.UTC(2026, 0, 2, 10, 0),
    ...patch,
  };
}

const ACME: DomainListItem = {
  _id: "d1",
  name: "Acme",
  full_name: "Acme Ltd",
  tin: "1234567890",
  email: null,
  phone: null,
  manager: null,
  policy_id: null,
  device_limit: null,
  create_time: 0,
  last_session: null,
  devices: { online: 0, warning: 0, critical: 0 },
};

interface Call {
  path: string;
  body: Record<string, unknown>;
}

/** A fake of the three calls the page makes, answering `jobs` for the list; records every call. */
function serve(jobs: () => Job[] | Response | Promise<never>) {
  const calls: Call[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string, init?: RequestInit) => {
      calls.push({ path, body: JSON.parse(String(init?.body ?? "{}")) });
      if (path === "/api/jobs/") {
        const answer = await jobs();
        return answer instanceof Response ? answer : Response.json({ items: answer });
      }
      if (path === "/api/domains/") return Response.json({ items: [ACME], total: 1 });
      const retried = /^\/api\/job\/([^/]+)\/retry$/.exec(path);
      if (retried) return Response.json({ job: job(retried[1] ?? "", { state: "queued", attempts: 0 }) });
      return Response.json({ code: "BAD_REQUEST", message: path }, { status: 400 });
    }),
  );
  return calls;
}

function renderPage(role: Role) {
  sessionStore.set(person(role));
  const router = createMemoryRouter([{ path: "/jobs", element: <JobsPage /> }], {
    initialEntries: ["/jobs"],
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe("the jobs page", () => {
  beforeAll(() => setLocale("en"));
  afterEach(() => {
    cleanup();
    sessionStore.clear();
    vi.unstubAllGlobals();
  });

  it("shows a spinner while the list loads", () => {
    serve(() => new Promise<never>(() => {}));
    renderPage(1);
    expect(screen.getByTestId("query-pending")).toBeTruthy();
  });

  it("shows the error's text by its code, with a retry of the query", async () => {
    serve(() => Response.json({ code: "ACCESS_DENIED", message: "no" }, { status: 403 }));
    renderPage(2);
    const alert = await screen.findByTestId("query-error");
    expect(alert.textContent).not.toContain("no");
    expect(alert.textContent?.length).toBeGreaterThan(3);
  });

  it("asks for failed and dead jobs first and says when none wait", async () => {
    const calls = serve(() => []);
    renderPage(2);
    expect((await screen.findByTestId("list-empty")).textContent).toMatch(/no failed or dead jobs/i);
    expect(calls.find((call) => call.path === "/api/jobs/")?.body).toMatchObject({
      state: ["dead", "failed"],
      limit: 100,
      offset: 0,
    });
  });

  it("lists jobs with their state, attempts and error, and Retry only on failed and dead ones", async () => {
    serve(() => [job("j1"), job("j2", { state: "failed", attempts: 2 }), job("j3", { state: "done" })]);
    renderPage(2);
    expect(await screen.findAllByTestId("job-row")).toHaveLength(3);
    expect(screen.getByText("Dead")).toBeTruthy();
    expect(screen.getByText("2 of 8")).toBeTruthy();
    expect(screen.getAllByTestId("job-error")[0]?.getAttribute("title")).toMatch(
      /Recipient address rejected/,
    );
    expect(screen.getAllByTestId("job-retry")).toHaveLength(2);
    // An admin sees only their own domain's jobs, so there is no domain column.
    expect(screen.queryByText("Company")).toBeNull();
  });

  it("names each job's domain for a superuser, and the platform's own jobs as the system's", async () => {
    serve(() => [job("j1"), job("j2", { domain_id: null })]);
    renderPage(1);
    await screen.findAllByTestId("job-row");
    expect(screen.getByText("Company")).toBeTruthy();
    expect(await screen.findByText("Acme")).toBeTruthy();
    expect(screen.getByText("System")).toBeTruthy();
  });

  it("retries a job and reads the list again", async () => {
    const calls = serve(() => [job("j1")]);
    renderPage(1);
    fireEvent.click(await screen.findByTestId("job-retry"));
    await waitFor(() => expect(calls.some((call) => call.path === "/api/job/j1/retry")).toBe(true));
    await waitFor(() => expect(calls.filter((call) => call.path === "/api/jobs/")).toHaveLength(2));
  });

  it("shows a phone one block per job, with Retry and the error in view", async () => {
    vi.stubGlobal(
      "matchMedia",
      (query: string) =>
        ({
          matches: query.includes("max-width"),
          media: query,
          addEventListener: () => {},
          removeEventListener: () => {},
        }) as unknown as MediaQueryList,
    );
    serve(() => [job("j1")]);
    renderPage(2);
    const row = await screen.findByTestId("job-row");
    expect(row.tagName).toBe("DIV");
    expect(screen.queryByRole("table")).toBeNull();
    expect(screen.getByTestId("job-retry")).toBeTruthy();
    expect(screen.getByTestId("job-error")).toBeTruthy();
  });

  it("offers no Retry to someone the permission table does not let retry", async () => {
    // Role 3 has no jobs.retry (nor jobs.view: the route guard keeps it out; here only the button matters).
    serve(() => [job("j1")]);
    renderPage(3);
    expect(await screen.findAllByTestId("job-row")).toHaveLength(1);
    expect(screen.queryByTestId("job-retry")).toBeNull();
    expect(screen.queryByText("Actions")).toBeNull();
  });
});
