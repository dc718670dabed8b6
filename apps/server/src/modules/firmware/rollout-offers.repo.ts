import { type Kysely, sql } from "kysely";
import type { DB } from "../../platform/db/schema";
import type { FirmwareRolloutDomainRow } from "../../platform/db/schema-firmware";

// The domains a rollout is offered to and their answers (ADR 031). A domain's admin reads and
// decides on its own rows (the domain id first); root's driver and progress read every domain's.

/** A domain's offer with its rollout, as the domain's list shows it. */
export interface OfferRow extends FirmwareRolloutDomainRow {
  rule_name: string | null;
  version: string;
  rollout_status: string;
  rollout_window_start: number | null;
  rollout_window_end: number | null;
}

export function rolloutOffersRepo(db: Kysely<DB>) {
  return {
    /** The domain's offers, newest first, with their rollout and rule. */
    async listOffers(domainId: string): Promise<OfferRow[]> {
      return db
        .selectFrom("firmware_rollout_domains as o")
        .innerJoin("firmware_rollouts as r", "r.id", "o.rollout_id")
        .leftJoin("software_rules as s", "s.id", "r.rule_id")
        .selectAll("o")
        .select([
          "s.name as rule_name",
          "r.version",
          "r.status as rollout_status",
          "r.window_start as rollout_window_start",
          "r.window_end as rollout_window_end",
        ])
        .where("o.domain_id", "=", domainId)
        .orderBy("o.create_time", "desc")
        .orderBy("o.rollout_id", "desc")
        .limit(100)
        .execute();
    },

    /** The domain's routers in these rollouts: how many, and how many updated. */
    async countDomainTargets(
      domainId: string,
      rolloutIds: readonly string[],
    ): Promise<Array<{ rollout_id: string; state: string; count: number }>> {
      if (rolloutIds.length === 0) return [];
      const rows = await db
        .selectFrom("firmware_rollout_targets")
        .select(["rollout_id", "state", (eb) => eb.fn.countAll<string>().as("count")])
        .where("domain_id", "=", domainId)
        .where("rollout_id", "in", [...rolloutIds])
        .groupBy(["rollout_id", "state"])
        .execute();
      return rows.map((row) => ({ ...row, count: Number(row.count) }));
    },

    /** Flashes of the domain's devices that succeeded in [from, to), per device (uptime reports). */
    async countSucceededFlashesOfDevices(
      domainId: string,
      deviceIds: readonly string[],
      from: Date,
      to: Date,
    ): Promise<Array<{ device_id: string; count: number }>> {
      if (deviceIds.length === 0) return [];
      const rows = await db
        .selectFrom("firmware_rollout_targets")
        .select(["device_id", (eb) => eb.fn.countAll<string>().as("count")])
        .where("domain_id", "=", domainId)
        .where(sql<boolean>`device_id = any(${deviceIds}::text[])`)
        .where("state", "=", "succeeded")
        .where("update_time", ">=", from)
        .where("update_time", "<", to)
        .groupBy("device_id")
        .execute();
      return rows.map((row) => ({ ...row, count: Number(row.count) }));
    },

    /** The domain's offer of a rollout, locked for its decision. */
    async lockOffer(domainId: string, rolloutId: string): Promise<FirmwareRolloutDomainRow | undefined> {
      return db
        .selectFrom("firmware_rollout_domains")
        .selectAll()
        .where("domain_id", "=", domainId)
        .where("rollout_id", "=", rolloutId)
        .forUpdate()
        .executeTakeFirst();
    },

    /** Writes the domain's answer. */
    async decideOffer(
      domainId: string,
      rolloutId: string,
      answer: Pick<
        FirmwareRolloutDomainRow,
        "state" | "window_start" | "window_end" | "decided_by" | "decide_time"
      >,
    ): Promise<void> {
      await db
        .updateTable("firmware_rollout_domains")
        .set(answer)
        .where("domain_id", "=", domainId)
        .where("rollout_id", "=", rolloutId)
        .execute();
    },

    /** Accepted: the domain's waiting routers lose their 'offer' hold and wait for their turn. */
    async releaseDomainTargets(domainId: string, rolloutId: string, now: Date): Promise<void> {
      await db
        .updateTable("firmware_rollout_targets")
        .set({ reason: null, update_time: now })
        .where("domain_id", "=", domainId)
        .where("rollout_id", "=", rolloutId)
        .where("state", "=", "waiting")
        .where("reason", "=", "offer")
        .execute();
    },

    /** Declined: the domain's waiting routers are skipped; none of them will be sent. */
    async skipDomainTargets(domainId: string, rolloutId: string, now: Date): Promise<void> {
      await db
        .updateTable("firmware_rollout_targets")
        .set({ state: "skipped", reason: "declined", update_time: now })
        .where("domain_id", "=", domainId)
        .where("rollout_id", "=", rolloutId)
        .where("state", "=", "waiting")
        .execute();
    },

    /** A started rollout's offers, one per domain. */
    async insertOffersAcrossDomains(rows: ReadonlyArray<FirmwareRolloutDomainRow>): Promise<void> {
      if (rows.length > 0)
        await db
          .insertInto("firmware_rollout_domains")
          .values([...rows])
          .execute();
    },

    /** Every domain of a rollout with its answer and name (root's progress, the driver's check). */
    async listRolloutDomainsAcrossDomains(
      rolloutId: string,
    ): Promise<Array<FirmwareRolloutDomainRow & { name: string | null }>> {
      return db
        .selectFrom("firmware_rollout_domains as o")
        .leftJoin("domains as d", "d.id", "o.domain_id")
        .selectAll("o")
        .select("d.name")
        .where("o.rollout_id", "=", rolloutId)
        .orderBy("d.name")
        .orderBy("o.domain_id")
        .execute();
    },

    /** A rollout's targets per domain and state. */
    async countTargetsByDomainAcrossDomains(
      rolloutId: string,
    ): Promise<Array<{ domain_id: string; state: string; count: number }>> {
      const rows = await db
        .selectFrom("firmware_rollout_targets")
        .select(["domain_id", "state", (eb) => eb.fn.countAll<string>().as("count")])
        .where("rollout_id", "=", rolloutId)
        .groupBy(["domain_id", "state"])
        .execute();
      return rows.map((row) => ({ ...row, count: Number(row.count) }));
    },
  };
}
