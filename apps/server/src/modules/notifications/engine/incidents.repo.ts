import { randomUUID } from "node:crypto";
import type { MessageLine } from "@cellfleet/contract";
import { type Kysely, sql } from "kysely";
import { domainOp } from "../../../platform/db/domain-filter";
import type { DB, NotificationIncidentRow } from "../../../platform/db/schema";

/** A finding about one subject of a rule: the incident's key and the line that tells it. */
export interface IncidentSignal {
  subjectKey: string;
  line: MessageLine;
  /** An occurrence that closes at a set time rather than after the quiet window (an expiry). */
  closeAt?: Date;
}

const LIVE = ["pending", "open", "closing"] as const;

/** How a flushed incident moves on. */
export interface IncidentSettlement {
  id: string;
  state: "open" | "closed";
  dueAt: Date | null;
  announcedAt: Date | null;
  closedAt: Date | null;
}

function columns(domainId: string | null, ruleId: string, signals: readonly IncidentSignal[]) {
  return {
    ids: signals.map(() => randomUUID()),
    keys: signals.map((signal) => signal.subjectKey),
    lines: signals.map((signal) =>
      JSON.stringify({ ...signal.line, ...(signal.closeAt ? { closeAtMs: signal.closeAt.getTime() } : {}) }),
    ),
    domainId,
    ruleId,
  };
}

/**
 * Incidents of a rule: one live incident per rule and subject (a partial unique index), so a
 * repeat counts into it rather than opening another. Every function takes the rule's domain id
 * (null for the superusers' rules) first.
 */
export function incidentsRepo(db: Kysely<DB>) {
  return {
    /**
     * Problems of a state monitor. A new one waits (pending) until `dueAt` (now + tolerance). One
     * that had just ended (closing, its end not sent yet) is open again and counted as a repeat: a
     * flap inside the tolerance sends nothing. A live one is only seen again.
     */
    async raiseProblems(
      domainId: string | null,
      ruleId: string,
      signals: readonly IncidentSignal[],
      now: Date,
      dueAt: Date,
    ): Promise<void> {
      if (signals.length === 0) return;
      const c = columns(domainId, ruleId, signals);
      await sql`
        insert into notification_incidents
          (id, domain_id, rule_id, subject_key, style, state, opened_line, started_at, due_at, last_seen_at)
        select v.id, ${c.domainId}, ${c.ruleId}, v.key, 'state', 'pending', v.line::jsonb, ${now}, ${dueAt}, ${now}
        from unnest(${c.ids}::text[], ${c.keys}::text[], ${c.lines}::text[]) as v(id, key, line)
        on conflict (rule_id, subject_key) where state in ('pending', 'open', 'closing') do update set
          last_seen_at = excluded.last_seen_at,
          repeats = notification_incidents.repeats
            + case when notification_incidents.state = 'closing' then 1 else 0 end,
          resolved_line = case when notification_incidents.state = 'closing' then null
            else notification_incidents.resolved_line end,
          due_at = case when notification_incidents.state = 'closing' then null
            else notification_incidents.due_at end,
          state = case when notification_incidents.state = 'closing' then 'open'
            else notification_incidents.state end`.execute(db);
    },

    /**
     * Ends of state problems. One still pending never lasted the tolerance: it closes and nothing
     * is sent. An announced one is closing: its end is sent at `closingDueAt` (now + tolerance)
     * unless the problem comes back first. The line gets the problem's duration.
     */
    async resolveProblems(
      domainId: string | null,
      ruleId: string,
      signals: readonly IncidentSignal[],
      now: Date,
      closingDueAt: Date,
    ): Promise<number> {
      if (signals.length === 0) return 0;
      const c = columns(domainId, ruleId, signals);
      const result = await sql`
        update notification_incidents as i set
          state = case when i.state = 'pending' then 'closed' else 'closing' end,
          closed_at = case when i.state = 'pending' then ${now}::timestamptz else null end,
          due_at = case when i.state = 'pending' then null else ${closingDueAt}::timestamptz end,
          resolved_line = jsonb_set(v.line::jsonb, '{params,durationMs}',
            to_jsonb(round(extract(epoch from (${now}::timestamptz - i.started_at)) * 1000))),
          last_seen_at = ${now}
        from unnest(${c.keys}::text[], ${c.lines}::text[]) as v(key, line)
        where i.rule_id = ${c.ruleId} and i.subject_key = v.key and i.state in ('pending', 'open')
          and i.domain_id is not distinct from ${c.domainId}`.execute(db);
      return Number(result.numAffectedRows ?? 0);
    },

    /**
     * Occurrences. A new one is sent at the next flush (`now`). A repeat of a live one is counted
     * (when `isRepeat`) and keeps it open until `now + windowMs` after the last time it happened.
     */
    async recordOccurrences(
      domainId: string | null,
      ruleId: string,
      signals: readonly IncidentSignal[],
      now: Date,
      windowMs: number,
      isRepeat: boolean,
    ): Promise<void> {
      if (signals.length === 0) return;
      const c = columns(domainId, ruleId, signals);
      const closeAt = new Date(now.getTime() + windowMs);
      await sql`
        insert into notification_incidents
          (id, domain_id, rule_id, subject_key, style, state, opened_line, started_at, due_at, last_seen_at)
        select v.id, ${c.domainId}, ${c.ruleId}, v.key, 'occurrence', 'pending', v.line::jsonb, ${now}, ${now}, ${now}
        from unnest(${c.ids}::text[], ${c.keys}::text[], ${c.lines}::text[]) as v(id, key, line)
        on conflict (rule_id, subject_key) where state in ('pending', 'open', 'closing') do update set
          last_seen_at = excluded.last_seen_at,
          repeats = notification_incidents.repeats + ${isRepeat ? 1 : 0},
          due_at = case
            when notification_incidents.state = 'open' and notification_incidents.opened_line ? 'closeAtMs'
              then notification_incidents.due_at
            when notification_incidents.state = 'open'
              then greatest(notification_incidents.due_at, ${closeAt}::timestamptz)
            else notification_incidents.due_at end`.execute(db);
    },

    /** The live incidents' subject keys of a rule (a timer finds which ended). */
    async findLiveSubjectKeys(domainId: string | null, ruleId: string): Promise<string[]> {
      const rows = await db
        .selectFrom("notification_incidents")
        .select("subject_key")
        .where("domain_id", domainOp(domainId), domainId)
        .where("rule_id", "=", ruleId)
        .where("state", "in", ["pending", "open"])
        .execute();
      return rows.map((row) => row.subject_key);
    },

    /**
     * Takes the rule's incidents that are due (to be announced, to end, to close) for this flush.
     * SKIP LOCKED: two flushes of one rule on two nodes take disjoint incidents.
     */
    async claimDueIncidents(
      domainId: string | null,
      ruleId: string,
      now: Date,
    ): Promise<NotificationIncidentRow[]> {
      return db
        .selectFrom("notification_incidents")
        .selectAll()
        .where("domain_id", domainOp(domainId), domainId)
        .where("rule_id", "=", ruleId)
        .where("state", "in", LIVE)
        .where("due_at", "<=", now)
        .orderBy("started_at")
        .forUpdate()
        .skipLocked()
        .execute();
    },

    /** Writes how each flushed incident moves on. */
    async settleIncidents(
      domainId: string | null,
      settlements: readonly IncidentSettlement[],
    ): Promise<void> {
      if (settlements.length === 0) return;
      await sql`
        update notification_incidents as i set
          state = v.state, due_at = v.due_at, announced_at = coalesce(i.announced_at, v.announced_at),
          closed_at = v.closed_at
        from unnest(
          ${settlements.map((s) => s.id)}::text[], ${settlements.map((s) => s.state)}::text[],
          ${settlements.map((s) => s.dueAt)}::timestamptz[], ${settlements.map((s) => s.announcedAt)}::timestamptz[],
          ${settlements.map((s) => s.closedAt)}::timestamptz[]
        ) as v(id, state, due_at, announced_at, closed_at)
        where i.id = v.id and i.domain_id is not distinct from ${domainId}`.execute(db);
    },

    /** Closes a rule's live incidents without a word (the rule was switched off or changed). */
    async closeRuleIncidents(domainId: string | null, ruleId: string, now: Date): Promise<void> {
      await db
        .updateTable("notification_incidents")
        .set({ state: "closed", closed_at: now, due_at: null })
        .where("domain_id", domainOp(domainId), domainId)
        .where("rule_id", "=", ruleId)
        .where("state", "in", LIVE)
        .execute();
    },

    /** Deletes incidents closed before `before` (the hourly cleanup); answers how many. */
    async deleteClosedIncidentsAcrossDomains(before: Date): Promise<number> {
      const result = await db
        .deleteFrom("notification_incidents")
        .where("state", "=", "closed")
        .where("closed_at", "<", before)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
