import { COMMAND_CODES } from "../protocol/messages";
import type { ActionResult, ActionStatus } from "../status";

// The one state machine of a command's execution on one router (docs/adr/015-commands.md). Every
// status an execution ever gets comes from `nextExecutionStatus`; the server stores what it answers
// and nothing else. The statuses and results of spec section 4 are labels of these states.

/** Where one router's execution of a command is. */
export const EXECUTION_STATUSES = [
  "unapproved",
  "delayed",
  "queued",
  "sent",
  "in_progress",
  "completed",
  "failed",
  "expired",
  "cancelled",
  "timed_out",
  "attempts_exceeded",
] as const;
/** One of {@link EXECUTION_STATUSES}. */
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

/** The final statuses: nothing moves an execution out of one. */
export const FINAL_EXECUTION_STATUSES: readonly ExecutionStatus[] = [
  "completed",
  "failed",
  "expired",
  "cancelled",
  "timed_out",
  "attempts_exceeded",
];

/** What can happen to an execution. Router reports carry the router's completion code. */
export type ExecutionEvent =
  /** Approved; `isDelayed` when its delayed-until time is still ahead. */
  | { type: "approve"; isDelayed: boolean }
  /** Declined by the approver. */
  | { type: "decline" }
  /** Its delayed-until time came. */
  | { type: "due" }
  /** The router acknowledged receipt (`accepted`). */
  | { type: "accepted" }
  /** The router reports it is running (`running`, maybe with progress). */
  | { type: "running" }
  /** The router's final status. */
  | { type: "finished"; code: number }
  /** A person cancelled it before it reached the router. */
  | { type: "cancel" }
  /** Its run-until time passed before it was sent. */
  | { type: "expire" }
  /** Sent or running for longer than the watchdog allows. */
  | { type: "watchdog" }
  /** Published as often as allowed without the router acknowledging it. */
  | { type: "give_up" };

/** One of the event names. */
export type ExecutionEventType = ExecutionEvent["type"];

/**
 * The table of allowed moves: for every status, the statuses it may become. A self-move (sent →
 * sent) is not a move: a repeated report changes nothing.
 */
export const EXECUTION_MOVES: Readonly<Record<ExecutionStatus, readonly ExecutionStatus[]>> = {
  unapproved: ["delayed", "queued", "cancelled", "expired"],
  delayed: ["queued", "cancelled", "expired"],
  queued: ["sent", "in_progress", "completed", "failed", "expired", "cancelled", "attempts_exceeded"],
  sent: ["in_progress", "completed", "failed", "expired", "timed_out"],
  in_progress: ["completed", "failed", "expired", "timed_out"],
  completed: [],
  failed: [],
  expired: [],
  cancelled: [],
  timed_out: [],
  attempts_exceeded: [],
};

/** Whether an execution in this status is final. */
export function isExecutionFinal(status: ExecutionStatus): boolean {
  return EXECUTION_MOVES[status].length === 0;
}

/** The status a new execution starts in: waiting for approval, for its time, or for its router. */
export function initialExecutionStatus(options: {
  needsApproval: boolean;
  isDelayed: boolean;
}): ExecutionStatus {
  if (options.needsApproval) return "unapproved";
  return options.isDelayed ? "delayed" : "queued";
}

const NOT_SENT: readonly ExecutionStatus[] = ["unapproved", "delayed", "queued"];
const AT_ROUTER: readonly ExecutionStatus[] = ["queued", "sent", "in_progress"];

function candidate(status: ExecutionStatus, event: ExecutionEvent): ExecutionStatus | null {
  switch (event.type) {
    case "approve":
      return status === "unapproved" ? (event.isDelayed ? "delayed" : "queued") : null;
    case "decline":
      return status === "unapproved" ? "cancelled" : null;
    case "due":
      return status === "delayed" ? "queued" : null;
    case "accepted":
      return status === "queued" ? "sent" : null;
    case "running":
      return status === "queued" || status === "sent" ? "in_progress" : null;
    case "finished":
      if (!AT_ROUTER.includes(status)) return null;
      if (event.code === COMMAND_CODES.success) return "completed";
      return event.code === COMMAND_CODES.expired ? "expired" : "failed";
    case "cancel":
      return NOT_SENT.includes(status) ? "cancelled" : null;
    case "expire":
      return NOT_SENT.includes(status) ? "expired" : null;
    case "watchdog":
      return status === "sent" || status === "in_progress" ? "timed_out" : null;
    case "give_up":
      return status === "queued" ? "attempts_exceeded" : null;
  }
}

/**
 * The one transition function: the status an execution moves to on an event, or null when the
 * event changes nothing (a repeat, a late report, a final status). Its answer is always a move of
 * {@link EXECUTION_MOVES}.
 */
export function nextExecutionStatus(status: ExecutionStatus, event: ExecutionEvent): ExecutionStatus | null {
  const next = candidate(status, event);
  if (next === null || !EXECUTION_MOVES[status].includes(next)) return null;
  return next;
}

/** The statuses from which an event moves an execution: what a bulk update may select on. */
export function statusesMovedBy(event: ExecutionEvent): ExecutionStatus[] {
  return EXECUTION_STATUSES.filter((status) => nextExecutionStatus(status, event) !== null);
}

/** The result label of spec section 4 an execution (a report) shows in a status. */
export function executionResult(status: ExecutionStatus): ActionResult {
  switch (status) {
    case "unapproved":
    case "delayed":
    case "queued":
      return "not_sent";
    case "sent":
    case "in_progress":
      return "sent_not_confirmed";
    case "completed":
      return "success";
    case "failed":
      return "error";
    case "expired":
    case "timed_out":
      return "timed_out";
    case "cancelled":
      return "declined";
    case "attempts_exceeded":
      return "attempts_exceeded";
  }
}

/** How many of a command's executions are in each status. */
export type ExecutionCounts = Partial<Record<ExecutionStatus, number>>;

const FAILURES: readonly ExecutionStatus[] = ["failed", "timed_out", "attempts_exceeded"];

/**
 * Whether a failed command also completed on some routers: shown "partly completed" with its counts
 * rather than a bare "failed" (issue 27: 9 of 10 routers done read as a red Failed). Its status stays
 * the spec's `failed`, so the status filter still finds it there.
 */
export function isPartlyCompleted(status: ActionStatus, counts: ExecutionCounts): boolean {
  return status === "failed" && (counts.completed ?? 0) > 0;
}

/**
 * A command's status of spec section 4, worked out from its executions: waiting for approval while
 * any waits; delayed while everything unfinished waits for its time; in progress while anything is
 * unfinished; once all are final, failed if any failed, else completed if any completed, else
 * expired if any expired, else cancelled.
 */
export function commandStatusOf(counts: ExecutionCounts): ActionStatus {
  const has = (status: ExecutionStatus) => (counts[status] ?? 0) > 0;
  if (has("unapproved")) return "unapproved";
  const open = EXECUTION_STATUSES.filter((status) => !isExecutionFinal(status) && has(status));
  if (open.length > 0) return open.every((status) => status === "delayed") ? "delayed" : "in_progress";
  if (FAILURES.some(has)) return "failed";
  if (has("completed")) return "completed";
  if (has("expired")) return "expired";
  return "cancelled";
}

/** Command types whose harm a router cannot undo by itself: they always ask before they go. */
export const DANGEROUS_COMMAND_TYPES: readonly string[] = ["factory_reset", "fw_update", "restore"];

/**
 * Whether sending (or approving) a command asks once first (issue 27): one going to every router
 * or to tags (whose routers nobody listed), or of a type whose harm cannot be undone.
 */
export function needsConfirmation(
  type: string,
  targets: { readonly all?: boolean; readonly tags?: readonly string[] },
): boolean {
  return targets.all === true || (targets.tags?.length ?? 0) > 0 || DANGEROUS_COMMAND_TYPES.includes(type);
}
