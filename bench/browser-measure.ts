// Measurements of the browser benchmark, taken in the page's own clock (performance.now(), whose
// origin is the navigation start) and from Chromium's counters over the DevTools protocol.
import type { CDPSession, Page } from "playwright-core";
import { armRowWait, type LongTask, type RowCondition, type RowWaitResult } from "./browser-probes";

/** The p-th percentile (nearest rank). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** One interaction, measured. */
export interface Timing {
  group: string;
  ms: number;
  /**
   * The POST /api/devices/ the interaction sent (none when the page was cached): from its start to the
   * first byte of the answer and to the last (the facets line comes last).
   */
  firstByteMs: number;
  answerMs: number;
  /**
   * CPU time of the page's main thread from arming until the answer ended (CDP ThreadTime), and the wall
   * time spent running script meanwhile (ScriptDuration: above the CPU when the thread waited for a core).
   */
  cpuMs: number;
  scriptMs: number;
  longTasks: LongTask[];
}

/** The page under test, its DevTools session, and the interactions measured so far. */
export interface Session {
  page: Page;
  cdp: CDPSession;
  timings: Timing[];
}

/** Chromium's performance counters (CDP Performance.getMetrics) by name. */
export async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics: list } = await cdp.send("Performance.getMetrics");
  return Object.fromEntries(list.map((metric) => [metric.name, metric.value]));
}

/**
 * Times one interaction in the page's own clock: from the event that starts it (the click, the last
 * keystroke, Enter) to the frame in which the rows meet `condition`; the list request's answer time,
 * the main thread's CPU and the long tasks overlapping that span.
 */
export async function timeInteraction(
  { page, cdp, timings }: Session,
  group: string,
  startEvent: "click" | "input" | "keydown",
  condition: RowCondition,
  act: () => Promise<void>,
): Promise<Timing> {
  const before = await metrics(cdp);
  await page.evaluate(armRowWait, condition);
  await act();
  const result = await page.evaluate(() => window.__bench.pending as Promise<RowWaitResult>);
  if (result.end === null) {
    throw new Error(
      `${group}: the rows did not match ${JSON.stringify(condition)} within 30 s (${result.rows} rows)`,
    );
  }
  // The rows can be painted before the answer ends (its facets line comes last): wait for the end, so
  // the request's timing entry exists and the CPU counted below covers the whole interaction.
  await page
    .waitForFunction(() => !document.querySelector('[role="progressbar"]'), undefined, { timeout: 10_000 })
    .catch(() => undefined);
  await page.waitForTimeout(150); // a long task's entry is delivered after the task ends
  const after = await metrics(cdp);
  const measured = await page.evaluate(
    ({ type, end }) => {
      const state = window.__bench;
      const start = state.lastEvent[type] ?? state.armedAt;
      const overlapping = state.longTasks.filter(
        (task) => task.start + task.duration >= start && task.start <= end,
      );
      const requests = performance
        .getEntriesByType("resource")
        .filter(
          (entry) =>
            entry.name.endsWith("/api/devices/") && entry.startTime >= start && entry.startTime <= end,
        );
      const last = requests[requests.length - 1] as PerformanceResourceTiming | undefined;
      return {
        ms: end - start,
        firstByteMs: last ? last.responseStart - last.startTime : Number.NaN,
        answerMs: last ? last.responseEnd - last.startTime : Number.NaN,
        longTasks: overlapping,
      };
    },
    { type: startEvent, end: result.end },
  );
  const delta = (name: string) => ((after[name] ?? Number.NaN) - (before[name] ?? Number.NaN)) * 1000;
  const timing = { group, ...measured, cpuMs: delta("ThreadTime"), scriptMs: delta("ScriptDuration") };
  timings.push(timing);
  await page.waitForTimeout(300); // a person's pause: the next interaction starts on a quiet page
  return timing;
}

/** Loads /dashboard and reads the time from navigation start to the frame with the first rows. */
export async function timeNavigation(page: Page, cdp: CDPSession, isCold: boolean) {
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: isCold });
  await page.goto("/dashboard");
  await page.waitForFunction(() => window.__bench.firstRowAt !== null, undefined, { timeout: 60_000 });
  // The request's timing entry appears once its body has ended: the rows can be painted before that.
  const isListRequest = () =>
    performance.getEntriesByType("resource").some((entry) => entry.name.endsWith("/api/devices/"));
  await page.waitForFunction(isListRequest, undefined, { timeout: 10_000 }).catch(() => undefined);
  return page.evaluate(() => {
    const state = window.__bench;
    const firstRowAt = state.firstRowAt ?? Number.NaN;
    const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN;
    const tasks = state.longTasks.filter((task) => task.start <= firstRowAt);
    const list = performance
      .getEntriesByType("resource")
      .find((entry) => entry.name.endsWith("/api/devices/")) as PerformanceResourceTiming | undefined;
    return {
      listSentMs: list?.startTime ?? Number.NaN,
      listFirstByteMs: list?.responseStart ?? Number.NaN,
      listLastByteMs: list?.responseEnd ?? Number.NaN,
      firstRowMs: firstRowAt,
      rows: state.firstRowCount,
      fcpMs: fcp,
      longTasks: tasks.length,
      longestMs: Math.max(0, ...tasks.map((task) => task.duration)),
    };
  });
}

/** The total in the paginator's range ("1–10 of 100000"). */
export function paginatorTotal(text: string): number {
  const match = /of\s*([\d\s,.\u00a0\u202f]+)/.exec(text);
  return match ? Number((match[1] ?? "").replace(/\D/g, "")) : Number.NaN;
}
