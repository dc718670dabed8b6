import { type Kysely, sql } from "kysely";
import type { DB } from "../../platform/db/schema";

/** What GET /metrics reads from the database at each scrape: counts across every domain, bounded labels. */
export function metricsRepo(db: Kysely<DB>) {
  return {
    /**
     * Jobs by kind and state, and per kind the age in seconds of the oldest job due and not yet
     * taken (null when none waits): the outbox's backlog (ADR 007).
     */
    async countJobsAcrossDomains(
      now: Date,
    ): Promise<Array<{ kind: string; state: string; count: number; oldest_due_seconds: number | null }>> {
      const rows = await db
        .selectFrom("jobs")
        .select([
          "kind",
          "state",
          sql<number>`count(*)::int`.as("count"),
          sql<
            number | null
          >`extract(epoch from (${now}::timestamptz - min(run_at) filter (where state = 'queued' and run_at <= ${now}::timestamptz)))::float8`.as(
            "oldest_due_seconds",
          ),
        ])
        .groupBy(["kind", "state"])
        .execute();
      return rows.map((row) => ({
        ...row,
        count: Number(row.count),
        oldest_due_seconds: row.oldest_due_seconds === null ? null : Number(row.oldest_due_seconds),
      }));
    },

    /** Jobs due and not yet taken, of every kind. */
    async countDueJobsAcrossDomains(now: Date): Promise<number> {
      const row = await db
        .selectFrom("jobs")
        .select(sql<number>`count(*)::int`.as("count"))
        .where("state", "=", "queued")
        .where("run_at", "<=", now)
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    },

    /** Notification deliveries made since `since`, by the transport's provider and the delivery's state. */
    async countDeliveriesAcrossDomains(
      since: Date,
    ): Promise<Array<{ provider: string; state: string; count: number }>> {
      const rows = await db
        .selectFrom("notification_deliveries as d")
        .leftJoin("notification_transports as t", "t.id", "d.transport_id")
        .select([
          sql<string>`coalesce(t.type, 'none')`.as("provider"),
          "d.state as state",
          sql<number>`count(*)::int`.as("count"),
        ])
        .where("d.create_time", ">=", since)
        .groupBy([sql`coalesce(t.type, 'none')`, "d.state"])
        .execute();
      return rows.map((row) => ({ ...row, count: Number(row.count) }));
    },

    /** Command executions (one router's part of a command) made since `since`, by status. */
    async countExecutionsAcrossDomains(since: Date): Promise<Array<{ status: string; count: number }>> {
      const rows = await db
        .selectFrom("command_executions")
        .select(["status", sql<number>`count(*)::int`.as("count")])
        .where("create_time", ">=", since)
        .groupBy("status")
        .execute();
      return rows.map((row) => ({ ...row, count: Number(row.count) }));
    },
  };
}
