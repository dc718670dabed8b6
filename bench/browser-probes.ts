// What the browser benchmark runs inside the page. Playwright serialises these functions into the page,
// so each is self-contained: no imports, no module-level values.

/** One main-thread task of 50 ms or more (PerformanceObserver 'longtask'). */
export interface LongTask {
  start: number;
  duration: number;
}

/** What the rows must look like for an interaction to count as shown. */
export interface RowCondition {
  /** Exactly this many device rows in the DOM. */
  count: number;
  /** Exactly these idents, in this order. */
  idents?: string[];
  /** Every row's ident contains this. */
  identIncludes?: string;
  /** Every row's text contains this (lower case). */
  textIncludes?: string;
  /** Every row's status chip says this. */
  status?: string;
}

/** The moment the rows met the condition (the frame that paints them), or null after 30 s. */
export interface RowWaitResult {
  end: number | null;
  rows: number;
}

interface ProbeState {
  longTasks: LongTask[];
  /** performance.now() of the frame in which the first device row was in the DOM. */
  firstRowAt: number | null;
  firstRowCount: number;
  /** Timestamp of the latest event of each type since the last arming. */
  lastEvent: Record<string, number>;
  armedAt: number;
  pending: Promise<RowWaitResult> | null;
}

declare global {
  interface Window {
    __bench: ProbeState;
  }
}

/** Installed by page.addInitScript before any script of the page: long tasks, first rows, input times. */
export function installProbes(): void {
  const state: ProbeState = {
    longTasks: [],
    firstRowAt: null,
    firstRowCount: 0,
    lastEvent: {},
    armedAt: 0,
    pending: null,
  };
  window.__bench = state;
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        state.longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: "longtask", buffered: true });
  } catch {
    // No Long Tasks API: the counts stay empty and the report says 0.
  }
  const firstRows = new MutationObserver(() => {
    if (!document.querySelector('[data-testid="device-row"]')) return;
    firstRows.disconnect();
    requestAnimationFrame(() => {
      state.firstRowAt = performance.now();
      state.firstRowCount = document.querySelectorAll('[data-testid="device-row"]').length;
    });
  });
  firstRows.observe(document, { childList: true, subtree: true });
  for (const type of ["click", "input", "keydown"]) {
    window.addEventListener(type, (event) => (state.lastEvent[type] = event.timeStamp), true);
  }
}

/**
 * Starts watching the rows for `condition`; window.__bench.pending resolves at the frame after the
 * mutation that met it. Throws when the condition already holds (the interaction would measure nothing).
 */
export function armRowWait(condition: RowCondition): void {
  const state = window.__bench;
  const rowsMatch = (): boolean => {
    const rows = Array.from(document.querySelectorAll('[data-testid="device-row"]'));
    if (rows.length !== condition.count) return false;
    return rows.every((row, index) => {
      const ident = row.getAttribute("data-ident") ?? "";
      if (condition.idents && condition.idents[index] !== ident) return false;
      if (condition.identIncludes && !ident.includes(condition.identIncludes)) return false;
      if (condition.textIncludes && !(row.textContent ?? "").toLowerCase().includes(condition.textIncludes)) {
        return false;
      }
      const status = row.querySelector('[data-testid="status-chip"]')?.getAttribute("data-status");
      return !condition.status || status === condition.status;
    });
  };
  if (rowsMatch()) throw new Error(`the rows already match ${JSON.stringify(condition)}`);
  state.lastEvent = {};
  state.armedAt = performance.now();
  state.pending = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (!rowsMatch()) return;
      observer.disconnect();
      clearTimeout(timer);
      requestAnimationFrame(() => resolve({ end: performance.now(), rows: condition.count }));
    });
    const timer = setTimeout(() => {
      observer.disconnect();
      resolve({ end: null, rows: document.querySelectorAll('[data-testid="device-row"]').length });
    }, 30_000);
    observer.observe(document.body, {
      childList: true,
      subtree: true,
      attributes: true,
      characterData: true,
    });
  });
}

/** The list's DOM now: device rows, all table rows, the paginator's range and the page's elements. */
export function readListDom(): { deviceRows: number; tableRows: number; paginator: string; nodes: number } {
  return {
    deviceRows: document.querySelectorAll('[data-testid="device-row"]').length,
    tableRows: document.querySelectorAll("tr").length,
    // The paginator's range ("1–10 of 100000"), apart from the page buttons' numbers beside it.
    paginator:
      Array.from(document.querySelectorAll('[data-testid="list-paginator"] > *'))
        .map((element) => element.textContent ?? "")
        .find((text) => / of /.test(text)) ?? "",
    nodes: document.getElementsByTagName("*").length,
  };
}
