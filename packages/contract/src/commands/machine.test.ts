import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { COMMAND_CODES } from "../protocol/messages";
import {
  commandStatusOf,
  EXECUTION_MOVES,
  EXECUTION_STATUSES,
  type ExecutionEvent,
  type ExecutionStatus,
  executionResult,
  FINAL_EXECUTION_STATUSES,
  initialExecutionStatus,
  isExecutionFinal,
  needsConfirmation,
  nextExecutionStatus,
  statusesMovedBy,
} from "./machine";

const status = fc.constantFrom(...EXECUTION_STATUSES);
const event: fc.Arbitrary<ExecutionEvent> = fc.oneof(
  fc.boolean().map((isDelayed) => ({ type: "approve" as const, isDelayed })),
  fc.constantFrom<ExecutionEvent>(
    { type: "decline" },
    { type: "due" },
    { type: "accepted" },
    { type: "running" },
    { type: "cancel" },
    { type: "expire" },
    { type: "watchdog" },
    { type: "give_up" },
  ),
  fc.integer({ min: -5, max: 200 }).map((code) => ({ type: "finished" as const, code })),
);

describe("the execution state machine", () => {
  it("answers only moves of the table", () => {
    fc.assert(
      fc.property(status, event, (from, happening) => {
        const next = nextExecutionStatus(from, happening);
        if (next !== null) expect(EXECUTION_MOVES[from]).toContain(next);
      }),
    );
  });

  it("never leaves a final status, and the finals are exactly those without moves", () => {
    fc.assert(
      fc.property(fc.constantFrom(...FINAL_EXECUTION_STATUSES), event, (from, happening) => {
        expect(nextExecutionStatus(from, happening)).toBeNull();
      }),
    );
    expect(EXECUTION_STATUSES.filter(isExecutionFinal)).toEqual([...FINAL_EXECUTION_STATUSES]);
  });

  it("never returns to unapproved, and nothing unapproved reaches a router", () => {
    fc.assert(
      fc.property(status, event, (from, happening) => {
        expect(nextExecutionStatus(from, happening)).not.toBe("unapproved");
        if (from === "unapproved")
          expect(["sent", "in_progress", "completed", "failed", "timed_out"]).not.toContain(
            nextExecutionStatus(from, happening),
          );
      }),
    );
  });

  it("ends every run of events in a final status or in one still waiting, never anywhere else", () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.boolean(),
        fc.array(event, { maxLength: 30 }),
        (approval, delayed, events) => {
          let current: ExecutionStatus = initialExecutionStatus({
            needsApproval: approval,
            isDelayed: delayed,
          });
          const seen = [current];
          for (const happening of events) {
            const next = nextExecutionStatus(current, happening);
            if (next !== null) {
              expect(EXECUTION_MOVES[current]).toContain(next);
              current = next;
              seen.push(current);
            }
          }
          // A status once left is never seen again: the machine has no cycles.
          expect(new Set(seen).size).toBe(seen.length);
        },
      ),
    );
  });

  it("makes every move of the table reachable by some event", () => {
    const events: ExecutionEvent[] = [
      { type: "approve", isDelayed: true },
      { type: "approve", isDelayed: false },
      { type: "decline" },
      { type: "due" },
      { type: "accepted" },
      { type: "running" },
      { type: "finished", code: 0 },
      { type: "finished", code: 1 },
      { type: "finished", code: COMMAND_CODES.expired },
      { type: "cancel" },
      { type: "expire" },
      { type: "watchdog" },
      { type: "give_up" },
    ];
    for (const from of EXECUTION_STATUSES) {
      const reached = new Set(events.map((e) => nextExecutionStatus(from, e)).filter((s) => s !== null));
      expect([...reached].sort()).toEqual([...EXECUTION_MOVES[from]].sort());
    }
  });

  it("reads the router's code: 0 completed, 124 expired, anything else failed", () => {
    expect(nextExecutionStatus("sent", { type: "finished", code: 0 })).toBe("completed");
    expect(nextExecutionStatus("in_progress", { type: "finished", code: 124 })).toBe("expired");
    expect(nextExecutionStatus("in_progress", { type: "finished", code: 3 })).toBe("failed");
    expect(nextExecutionStatus("completed", { type: "accepted" })).toBeNull();
    expect(nextExecutionStatus("sent", { type: "accepted" })).toBeNull();
  });

  it("lets a person cancel only what has not reached a router", () => {
    expect(statusesMovedBy({ type: "cancel" })).toEqual(["unapproved", "delayed", "queued"]);
    expect(statusesMovedBy({ type: "watchdog" })).toEqual(["sent", "in_progress"]);
  });

  it("labels every status with a result of spec section 4", () => {
    expect(executionResult("queued")).toBe("not_sent");
    expect(executionResult("sent")).toBe("sent_not_confirmed");
    expect(executionResult("cancelled")).toBe("declined");
    expect(executionResult("attempts_exceeded")).toBe("attempts_exceeded");
  });
});

describe("a command's status from its executions", () => {
  it("waits while any execution waits for approval, then for its time", () => {
    expect(commandStatusOf({ unapproved: 1, completed: 3 })).toBe("unapproved");
    expect(commandStatusOf({ delayed: 2, completed: 1 })).toBe("delayed");
    expect(commandStatusOf({ delayed: 2, queued: 1 })).toBe("in_progress");
  });

  it("once all are final: failed over completed over expired over cancelled", () => {
    expect(commandStatusOf({ completed: 2, timed_out: 1 })).toBe("failed");
    expect(commandStatusOf({ completed: 2, cancelled: 1 })).toBe("completed");
    expect(commandStatusOf({ expired: 2, cancelled: 1 })).toBe("expired");
    expect(commandStatusOf({ cancelled: 2 })).toBe("cancelled");
  });

  it("is final exactly when every execution is", () => {
    fc.assert(
      fc.property(fc.dictionary(status, fc.integer({ min: 1, max: 5 }), { minKeys: 1 }), (counts) => {
        const isAllFinal = Object.keys(counts).every((s) => isExecutionFinal(s as ExecutionStatus));
        const result = commandStatusOf(counts);
        expect(["completed", "failed", "expired", "cancelled"].includes(result)).toBe(isAllFinal);
      }),
    );
  });
});

describe("who approves whom", () => {
  it("names the approvers the permission table allows for each author", async () => {
    const { approverKinds } = await import("../permissions");
    expect(approverKinds({ role: 2, is_junior: false })).toEqual([]);
    expect(approverKinds({ role: 3, is_junior: false })).toEqual(["admin"]);
    expect(approverKinds({ role: 3, is_junior: true })).toEqual(["admin", "assistant"]);
  });
});

describe("needsConfirmation (issue 27)", () => {
  it("asks before a command to every router, to tags, or of a type that cannot be undone", () => {
    expect(needsConfirmation("reboot", { all: true, tags: [] })).toBe(true);
    expect(needsConfirmation("reboot", { all: false, tags: ["north"] })).toBe(true);
    for (const type of ["factory_reset", "fw_update", "restore"])
      expect(needsConfirmation(type, { all: false, tags: [] })).toBe(true);
  });

  it("does not ask for a harmless command to routers named one by one", () => {
    expect(needsConfirmation("reboot", { all: false, tags: [] })).toBe(false);
    expect(needsConfirmation("journal", {})).toBe(false);
  });
});
