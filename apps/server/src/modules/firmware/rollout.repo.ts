import { type Kysely, sql } from "kysely";
import type { DB } from "../../platform/db/schema";
import type { FirmwareRolloutRow, FirmwareRolloutTargetRow } from "../../platform/db/schema-firmware";

// Rollouts are root's (no domain); each target carries its router's domain (ADR 021).

/** A waiting target with what the link holds read: its router's signal and modems report. */
export interface WaitingLink {
  device_id: string;
  domain_id: string;
  reason: string | null;
  signal_csq: number | null;
  modems: unknown;
}

export function rolloutRepo(db: Kysely<DB>) {
  /** The rollout's waiting targets joined to what the holds read (rollout-holds.ts). */
  const waitingLinks = (id: string) =>
    db
      .selectFrom("firmware_rollout_targets as t")
      .leftJoin("devices as d", "d.id", "t.device_id")
      .leftJoin("device_collects as c", (join) =>
        join.onRef("c.device_id", "=", "t.device_id").on("c.type", "=", "modems"),
      )
      .select(["t.device_id", "t.domain_id", "t.reason", "d.signal_csq", "c.data as modems"])
      .where("t.rollout_id", "=", id)
      .where("t.state", "=", "waiting");

  return {
    async insertRolloutAcrossDomains(
      row: Omit<FirmwareRolloutRow, "options"> & { options: string },
      targets: ReadonlyArray<
        Pick<FirmwareRolloutTargetRow, "device_id" | "domain_id" | "stage" | "state" | "reason">
      >,
    ): Promise<void> {
      await db.insertInto("firmware_rollouts").values(row).execute();
      for (let start = 0; start < targets.length; start += 500)
        await db
          .insertInto("firmware_rollout_targets")
          .values(
            targets.slice(start, start + 500).map((target) => ({
              ...target,
              rollout_id: row.id,
              update_time: row.create_time,
            })),
          )
          .execute();
    },

    async findRollout(id: string): Promise<FirmwareRolloutRow | undefined> {
      return db.selectFrom("firmware_rollouts").selectAll().where("id", "=", id).executeTakeFirst();
    },

    /** The rule's newest rollout. */
    async findLatestRollout(ruleId: string): Promise<{ id: string } | undefined> {
      return db
        .selectFrom("firmware_rollouts")
        .select("id")
        .where("rule_id", "=", ruleId)
        .orderBy("create_time", "desc")
        .orderBy("id", "desc")
        .limit(1)
        .executeTakeFirst();
    },

    async lockRollout(id: string): Promise<FirmwareRolloutRow | undefined> {
      return db
        .selectFrom("firmware_rollouts")
        .selectAll()
        .where("id", "=", id)
        .forUpdate()
        .executeTakeFirst();
    },

    async updateRollout(
      id: string,
      changes: Partial<
        Pick<FirmwareRolloutRow, "status" | "stage" | "pause_reason" | "tick" | "update_time">
      >,
    ): Promise<void> {
      await db.updateTable("firmware_rollouts").set(changes).where("id", "=", id).execute();
    },

    /** Targets per stage and state; `offer`: of them, those waiting for their domain's answer. */
    async countTargetsAcrossDomains(
      id: string,
    ): Promise<Array<{ stage: number; state: string; count: number; offer: number }>> {
      const rows = await db
        .selectFrom("firmware_rollout_targets")
        .select([
          "stage",
          "state",
          (eb) => eb.fn.countAll<string>().as("count"),
          sql<string>`count(*) filter (where reason = 'offer')`.as("offer"),
        ])
        .where("rollout_id", "=", id)
        .groupBy(["stage", "state"])
        .execute();
      return rows.map((row) => ({
        stage: row.stage,
        state: row.state,
        count: Number(row.count),
        offer: Number(row.offer),
      }));
    },

    async listFailuresAcrossDomains(
      id: string,
    ): Promise<Array<{ device_id: string; domain_id: string; stage: number; reason: string | null }>> {
      return db
        .selectFrom("firmware_rollout_targets")
        .select(["device_id", "domain_id", "stage", "reason"])
        .where("rollout_id", "=", id)
        .where("state", "=", "failed")
        .orderBy("device_id")
        .execute();
    },

    /** The sent targets with their router's firmware now and their execution's status. */
    async listSentAcrossDomains(id: string): Promise<
      Array<{
        device_id: string;
        deadline: Date | null;
        firmware: string | null;
        execution_status: string | null;
      }>
    > {
      return db
        .selectFrom("firmware_rollout_targets as t")
        .leftJoin("devices as d", "d.id", "t.device_id")
        .leftJoin("command_executions as e", "e.id", "t.execution_id")
        .select(["t.device_id", "t.deadline", "d.firmware", "e.status as execution_status"])
        .where("t.rollout_id", "=", id)
        .where("t.state", "=", "sent")
        .execute();
    },

    /**
     * A page of the waiting targets of a stage and the stages before it (routers left waiting for
     * their domain's answer, ADR 031) after `afterDeviceId`, in device order, with what the holds
     * read: the hold written last time, the router's CSQ and its latest modems report.
     */
    async listWaitingLinksAcrossDomains(
      id: string,
      stage: number,
      afterDeviceId: string | null,
      limit: number,
    ): Promise<WaitingLink[]> {
      let query = waitingLinks(id).where("t.stage", "<=", stage);
      if (afterDeviceId !== null) query = query.where("t.device_id", ">", afterDeviceId);
      return query.orderBy("t.device_id").limit(limit).execute();
    },

    /**
     * Every held target of the rollout (waiting with a hold written), in any stage, and every
     * waiting one of its link stage (held for a better link from the start; one whose domain just
     * accepted has no hold written yet, ADR 031), with what the holds read: one query per advance
     * however many are held.
     */
    async listHeldLinksAcrossDomains(id: string, linkStage: number | null): Promise<WaitingLink[]> {
      return waitingLinks(id)
        .where((eb) =>
          linkStage === null
            ? eb("t.reason", "is not", null)
            : eb.or([eb("t.reason", "is not", null), eb("t.stage", "=", linkStage)]),
        )
        .execute();
    },

    /** Writes one hold (null: none) on these waiting targets. */
    async setHoldAcrossDomains(
      id: string,
      deviceIds: readonly string[],
      reason: string | null,
      now: Date,
    ): Promise<void> {
      for (let start = 0; start < deviceIds.length; start += 1000)
        await db
          .updateTable("firmware_rollout_targets")
          .set({ reason, update_time: now })
          .where("rollout_id", "=", id)
          .where("state", "=", "waiting")
          .where("device_id", "in", deviceIds.slice(start, start + 1000))
          .execute();
    },

    /** Waiting targets held, by the reason the driver wrote when it last tried them. */
    async countHeldAcrossDomains(id: string): Promise<Array<{ reason: string; count: number }>> {
      const rows = await db
        .selectFrom("firmware_rollout_targets")
        .select(["reason", (eb) => eb.fn.countAll<string>().as("count")])
        .where("rollout_id", "=", id)
        .where("state", "=", "waiting")
        .where("reason", "is not", null)
        .groupBy("reason")
        .execute();
      return rows.map((row) => ({ reason: row.reason as string, count: Number(row.count) }));
    },

    async moveTargetAcrossDomains(
      id: string,
      deviceId: string,
      changes: Partial<
        Pick<
          FirmwareRolloutTargetRow,
          "state" | "reason" | "command_id" | "execution_id" | "deadline" | "update_time"
        >
      >,
    ): Promise<void> {
      await db
        .updateTable("firmware_rollout_targets")
        .set(changes)
        .where("rollout_id", "=", id)
        .where("device_id", "=", deviceId)
        .execute();
    },

    /** A cancelled rollout's waiting targets are skipped; answers how many. */
    async skipWaitingAcrossDomains(id: string, reason: string, now: Date): Promise<number> {
      const result = await db
        .updateTable("firmware_rollout_targets")
        .set({ state: "skipped", reason, update_time: now })
        .where("rollout_id", "=", id)
        .where("state", "=", "waiting")
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /** Failed targets wait again (retry); answers how many. */
    async retryFailedAcrossDomains(id: string, now: Date): Promise<number> {
      const result = await db
        .updateTable("firmware_rollout_targets")
        .set({
          state: "waiting",
          reason: null,
          command_id: null,
          execution_id: null,
          deadline: null,
          update_time: now,
        })
        .where("rollout_id", "=", id)
        .where("state", "=", "failed")
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /** The earliest stage with a target still waiting or sent at or below `stage` (a retried one). */
    async firstOpenStageAcrossDomains(id: string): Promise<number | null> {
      const row = await db
        .selectFrom("firmware_rollout_targets")
        .select(sql<number>`min(stage)`.as("stage"))
        .where("rollout_id", "=", id)
        .where("state", "in", ["waiting", "sent"])
        .executeTakeFirst();
      return row?.stage ?? null;
    },
  };
}
