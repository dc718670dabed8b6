import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import type { DB } from "../db/schema";
import type { Jobs } from "./jobs";

// Job kinds and outbox events are keyed by name with their payloads (JobPayloads, OutboxPayloads):
// a wrong one is a compile error where it is written. The lines under @ts-expect-error are what
// `npm run typecheck` refuses; were the maps loose, the directive itself would fail the typecheck.
function writesTheTypecheckRefuses(jobs: Jobs, trx: Kysely<DB>): void {
  // @ts-expect-error: a kind nobody declared
  void jobs.enqueue(trx, { kind: "no.such.kind" });
  // @ts-expect-error: a payload that does not fit its kind
  void jobs.enqueue(trx, { kind: "mail.send", payload: { to: "a@example.com" } });
  // @ts-expect-error: a payload its kind requires, left out
  void jobs.enqueue(trx, { kind: "mail.send" });
  // @ts-expect-error: a payload that does not fit its event
  void jobs.emit(trx, "device.reported", { connected: "r1", events: [] });
  // @ts-expect-error: a periodic kind takes no payload
  jobs.every("mail.send", 60_000);
  jobs.register("mail.send", {
    // @ts-expect-error: the handler reads its kind's payload, which has no `body`
    handle: async ({ payload }) => void payload.body,
  });
}

describe("job kinds and outbox events", () => {
  it("are typed by name (the typecheck holds the lines above)", () => {
    expect(writesTheTypecheckRefuses).toBeTypeOf("function");
  });
});
