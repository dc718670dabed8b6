import type { TagScope } from "@cellfleet/contract";
import { type Kysely, sql } from "kysely";
import type { DB } from "../../platform/db/schema";
import { tagScopeCondition } from "../../platform/db/tag-scope";

/** A session joined with its router's ident and the names of its author and approver. */
export interface TunnelRow {
  id: string;
  domain_id: string;
  device_id: string;
  ident: string;
  kind: string;
  state: string;
  minutes: number;
  author_id: string;
  author: string;
  author_role: number;
  author_is_junior: boolean;
  approver: string | null;
  created_at: Date;
  approved_at: Date | null;
  opened_at: Date | null;
  ended_at: Date | null;
  end_reason: string | null;
  bytes_up: string;
  bytes_down: string;
  has_recording: boolean;
}

/** The router's single-use credential as the SSH endpoint checks it. */
export interface TunnelSecretRow {
  id: string;
  domain_id: string;
  state: string;
  secret_hash: string | null;
  secret_expires_at: Date | null;
  secret_used_at: Date | null;
}

/** How many ended sessions the list shows after the ones not yet over. */
const ENDED_SHOWN = 20;

/** Remote-access sessions (0037_tunnel_sessions); every function but the endpoint's names the domain. */
export function tunnelsRepo(db: Kysely<DB>) {
  // A tag scope (ADR 041) keeps the sessions of the routers within it; none: the whole domain's.
  const selectRows = (domainId: string, tagScope: TagScope = []) =>
    db
      .selectFrom("tunnel_sessions as t")
      .innerJoin("devices as d", "d.id", "t.device_id")
      .innerJoin("users as a", "a.id", "t.author_id")
      .leftJoin("users as p", "p.id", "t.approver_id")
      .select([
        "t.id",
        "t.domain_id",
        "t.device_id",
        "d.ident",
        "t.kind",
        "t.state",
        "t.minutes",
        "t.author_id",
        "a.username as author",
        "a.role as author_role",
        "a.is_junior as author_is_junior",
        "p.username as approver",
        "t.created_at",
        "t.approved_at",
        "t.opened_at",
        "t.ended_at",
        "t.end_reason",
        "t.bytes_up",
        "t.has_recording",
        "t.bytes_down",
      ])
      .where("t.domain_id", "=", domainId)
      .$if(tagScope.length > 0, (q) => q.where(tagScopeCondition("d.tags", tagScope)));

  return {
    async insertSession(
      domainId: string,
      session: {
        id: string;
        deviceId: string;
        kind: string;
        state: string;
        minutes: number;
        authorId: string;
        createdAt: Date;
      },
    ): Promise<void> {
      await db
        .insertInto("tunnel_sessions")
        .values({
          id: session.id,
          domain_id: domainId,
          device_id: session.deviceId,
          kind: session.kind,
          state: session.state,
          minutes: session.minutes,
          author_id: session.authorId,
          created_at: session.createdAt,
          approved_at: session.state === "approved" ? session.createdAt : null,
        })
        .execute();
    },

    async findSession(domainId: string, id: string, tagScope: TagScope = []): Promise<TunnelRow | undefined> {
      return selectRows(domainId, tagScope).where("t.id", "=", id).executeTakeFirst();
    },

    /** The sessions not yet over (newest first), then the latest ended or refused ones. */
    async listSessions(domainId: string, tagScope: TagScope = []): Promise<TunnelRow[]> {
      const live = await selectRows(domainId, tagScope)
        .where("t.state", "in", ["waiting", "approved", "open"])
        .orderBy("t.created_at", "desc")
        .execute();
      const over = await selectRows(domainId, tagScope)
        .where("t.state", "in", ["ended", "refused"])
        .orderBy("t.created_at", "desc")
        .limit(ENDED_SHOWN)
        .execute();
      return [...live, ...over];
    },

    /** Moves a session from one state to another; false when it was no longer in `from`. */
    async moveState(
      domainId: string,
      id: string,
      from: readonly string[],
      change: {
        state: string;
        approverId?: string;
        minutes?: number;
        at: Date;
        endReason?: string;
      },
    ): Promise<boolean> {
      const result = await db
        .updateTable("tunnel_sessions")
        .set({
          state: change.state,
          ...(change.approverId !== undefined
            ? { approver_id: change.approverId, approved_at: change.at }
            : {}),
          ...(change.minutes !== undefined ? { minutes: change.minutes } : {}),
          ...(change.state === "open" ? { opened_at: change.at } : {}),
          ...(change.state === "ended" || change.state === "refused"
            ? { ended_at: change.at, end_reason: change.endReason ?? null }
            : {}),
        })
        .where("domain_id", "=", domainId)
        .where("id", "=", id)
        .where("state", "in", [...from])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Gives an approved session its router credential (only the hash) and the node that holds it. */
    async setSecret(
      domainId: string,
      id: string,
      secret: { hash: string; expiresAt: Date; node: string },
    ): Promise<void> {
      await db
        .updateTable("tunnel_sessions")
        .set({
          secret_hash: secret.hash,
          secret_expires_at: secret.expiresAt,
          secret_used_at: null,
          node: secret.node,
        })
        .where("domain_id", "=", domainId)
        .where("id", "=", id)
        .execute();
    },

    /**
     * Takes the router's credential once: marks it used if it is unused, unexpired and its session
     * approved, in one statement. Across domains: the router signs in with the session id only.
     */
    async useSecretAcrossDomains(id: string, hash: string, now: Date): Promise<TunnelSecretRow | undefined> {
      return db
        .updateTable("tunnel_sessions")
        .set({ secret_used_at: now })
        .where("id", "=", id)
        .where("secret_hash", "=", hash)
        .where("secret_used_at", "is", null)
        .where("secret_expires_at", ">", now)
        .where("state", "=", "approved")
        .returning(["id", "domain_id", "state", "secret_hash", "secret_expires_at", "secret_used_at"])
        .executeTakeFirst();
    },

    /** Records the bytes each way of a session (the running totals, written at its end), and that its recording is stored. */
    async setOutcome(
      domainId: string,
      id: string,
      outcome: { up: number; down: number; hasRecording: boolean },
    ): Promise<void> {
      await db
        .updateTable("tunnel_sessions")
        .set({ bytes_up: outcome.up, bytes_down: outcome.down, has_recording: outcome.hasRecording })
        .where("domain_id", "=", domainId)
        .where("id", "=", id)
        .execute();
    },

    /**
     * Sessions of every domain whose recording is past their domain's `remote_access.recording_days`
     * (90 when unset) at `now`, oldest first, at most `limit`.
     */
    async listExpiredRecordingsAcrossDomains(
      now: Date,
      limit: number,
    ): Promise<Array<{ id: string; domain_id: string }>> {
      return db
        .selectFrom("tunnel_sessions as t")
        .innerJoin("domains as d", "d.id", "t.domain_id")
        .select(["t.id", "t.domain_id"])
        .where("t.has_recording", "=", true)
        .where(
          "t.ended_at",
          "<",
          sql<Date>`${now}::timestamptz - make_interval(days => coalesce((d.settings -> 'remote_access' ->> 'recording_days')::int, 90))`,
        )
        .orderBy("t.ended_at")
        .limit(limit)
        .execute();
    },

    /** Notes that a session's recording was removed from storage. */
    async clearRecording(domainId: string, id: string): Promise<void> {
      await db
        .updateTable("tunnel_sessions")
        .set({ has_recording: false })
        .where("domain_id", "=", domainId)
        .where("id", "=", id)
        .execute();
    },

    /** The session's router: its ident and whether the gateway last saw it connected. */
    async findRouter(
      domainId: string,
      deviceId: string,
    ): Promise<{ ident: string; connected: boolean | null } | undefined> {
      return db
        .selectFrom("devices")
        .select(["ident", "connected"])
        .where("domain_id", "=", domainId)
        .where("id", "=", deviceId)
        .executeTakeFirst();
    },
  };
}
