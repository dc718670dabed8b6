import type { DeliveryState, TagScope } from "@cellfleet/contract";
import { type Kysely, sql } from "kysely";
import { domainOp } from "../../platform/db/domain-filter";
import {
  type DB,
  type NotificationDeliveryAttemptRow,
  type NotificationDeliveryRow,
  type NotificationTransportRow,
  toJsonb,
} from "../../platform/db/schema";
import { namedRoutersWithinTagScope } from "../../platform/db/tag-scope";

/** A delivery as the log lists it: with its rule's and provider's names and its job's next run. */
export type DeliveryListRow = NotificationDeliveryRow & {
  rule_name: string | null;
  transport_name: string | null;
  transport_type: "telegram" | "webhook" | "smtp" | null;
  job_state: string | null;
  job_run_at: Date | null;
};

/** What the log filters by. */
export interface DeliveryFilter {
  /** One delivery only. */
  id?: string;
  states?: DeliveryState[];
  ruleId?: string;
  transportId?: string;
  /** Only deliveries about the caller's routers (ADR 041); empty or absent: all. */
  tagScope?: TagScope;
  limit: number;
  offset: number;
}

/** A new delivery. */
export interface NewDelivery {
  id: string;
  ruleId: string | null;
  transportId: string;
  kind: NotificationDeliveryRow["kind"];
  title: string;
  text: string;
  maxAttempts: number;
  /** The routers its lines name; null: none. */
  deviceIds: string[] | null;
  at: Date;
}

/** The delivery log of a domain (null: the superusers'): every function takes the domain id first. */
export function deliveriesRepo(db: Kysely<DB>) {
  return {
    async insertDelivery(domainId: string | null, delivery: NewDelivery): Promise<void> {
      await db
        .insertInto("notification_deliveries")
        .values({
          id: delivery.id,
          domain_id: domainId,
          rule_id: delivery.ruleId,
          transport_id: delivery.transportId,
          kind: delivery.kind,
          state: "queued",
          title: delivery.title,
          text: delivery.text,
          max_attempts: delivery.maxAttempts,
          device_ids: delivery.deviceIds && toJsonb(delivery.deviceIds),
          create_time: delivery.at,
          update_time: delivery.at,
        })
        .execute();
    },

    async setDeliveryJob(domainId: string | null, id: string, jobId: string | null): Promise<void> {
      await db
        .updateTable("notification_deliveries")
        .set({ job_id: jobId })
        .where("domain_id", domainOp(domainId), domainId)
        .where("id", "=", id)
        .execute();
    },

    /** A delivery with its provider's row (null when the provider was deleted). */
    async findDeliveryWithTransport(
      domainId: string | null,
      id: string,
    ): Promise<
      { delivery: NotificationDeliveryRow; transport: NotificationTransportRow | null } | undefined
    > {
      const delivery = await db
        .selectFrom("notification_deliveries")
        .selectAll()
        .where("domain_id", domainOp(domainId), domainId)
        .where("id", "=", id)
        .executeTakeFirst();
      if (!delivery) return undefined;
      const transport = delivery.transport_id
        ? ((await db
            .selectFrom("notification_transports")
            .selectAll()
            .where("domain_id", domainOp(domainId), domainId)
            .where("id", "=", delivery.transport_id)
            .executeTakeFirst()) ?? null)
        : null;
      return { delivery, transport };
    },

    /** An attempt starts: the delivery is sending, and the attempt is logged. Answers its number. */
    async startAttempt(domainId: string | null, id: string, at: Date): Promise<number> {
      const row = await db
        .updateTable("notification_deliveries")
        .set((eb) => ({ state: "sending", attempts: eb("attempts", "+", 1), update_time: at }))
        .where("domain_id", domainOp(domainId), domainId)
        .where("id", "=", id)
        .returning("attempts")
        .executeTakeFirstOrThrow();
      await db
        .insertInto("notification_delivery_attempts")
        .values({ delivery_id: id, attempt: row.attempts, outcome: "sending", start_time: at })
        .execute();
      return row.attempts;
    },

    /** An attempt ended: its outcome and answer, and the delivery's state. */
    async finishAttempt(
      domainId: string | null,
      id: string,
      attempt: number,
      outcome: {
        state: DeliveryState;
        attemptOutcome: "sent" | "failed" | "retry_after";
        statusCode: number | null;
        answer: string;
        at: Date;
      },
    ): Promise<void> {
      await db
        .updateTable("notification_delivery_attempts")
        .set({
          outcome: outcome.attemptOutcome,
          status_code: outcome.statusCode,
          answer: outcome.answer,
          end_time: outcome.at,
        })
        .where("delivery_id", "=", id)
        .where("attempt", "=", attempt)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom("notification_deliveries as d")
              .select("d.id")
              .where("d.id", "=", id)
              .where("d.domain_id", domainOp(domainId), domainId),
          ),
        )
        .execute();
      await db
        .updateTable("notification_deliveries")
        .set({
          state: outcome.state,
          last_answer: outcome.answer,
          update_time: outcome.at,
          ...(outcome.state === "sent" ? { sent_at: outcome.at } : {}),
        })
        .where("domain_id", domainOp(domainId), domainId)
        .where("id", "=", id)
        .execute();
    },

    /** The log, newest first. */
    async findDeliveries(domainId: string | null, filter: DeliveryFilter): Promise<DeliveryListRow[]> {
      let query = db
        .selectFrom("notification_deliveries as d")
        .leftJoin("notification_rules as r", "r.id", "d.rule_id")
        .leftJoin("notification_transports as t", "t.id", "d.transport_id")
        .leftJoin("jobs as j", "j.id", "d.job_id")
        .selectAll("d")
        .select([
          "r.name as rule_name",
          "t.name as transport_name",
          "t.type as transport_type",
          "j.state as job_state",
          "j.run_at as job_run_at",
        ])
        .where("d.domain_id", domainOp(domainId), domainId);
      if (filter.id !== undefined) query = query.where("d.id", "=", filter.id);
      if (filter.states?.length) query = query.where("d.state", "in", filter.states);
      if (filter.ruleId) query = query.where("d.rule_id", "=", filter.ruleId);
      if (filter.transportId) query = query.where("d.transport_id", "=", filter.transportId);
      if (filter.tagScope?.length)
        query = query.where(namedRoutersWithinTagScope("d.device_ids", filter.tagScope));
      return query
        .orderBy("d.create_time", "desc")
        .orderBy("d.id", "desc")
        .limit(filter.limit)
        .offset(filter.offset)
        .execute();
    },

    /** The attempts of these deliveries, in order. */
    async findAttempts(
      domainId: string | null,
      deliveryIds: readonly string[],
    ): Promise<NotificationDeliveryAttemptRow[]> {
      if (deliveryIds.length === 0) return [];
      return db
        .selectFrom("notification_delivery_attempts as a")
        .innerJoin("notification_deliveries as d", "d.id", "a.delivery_id")
        .selectAll("a")
        .where("d.domain_id", domainOp(domainId), domainId)
        .where("a.delivery_id", "in", deliveryIds)
        .orderBy("a.delivery_id")
        .orderBy("a.attempt")
        .execute();
    },

    /** A sent or failed delivery queued again by a person; undefined when it is neither (or not found). */
    async requeueDelivery(
      domainId: string | null,
      id: string,
      at: Date,
    ): Promise<NotificationDeliveryRow | undefined> {
      return db
        .updateTable("notification_deliveries")
        .set({ state: "queued", update_time: at })
        .where("domain_id", domainOp(domainId), domainId)
        .where("id", "=", id)
        .where("state", "in", ["sent", "failed"])
        .returningAll()
        .executeTakeFirst();
    },

    /** Deletes deliveries older than `before` (the hourly cleanup); answers how many. */
    async deleteOldDeliveriesAcrossDomains(before: Date): Promise<number> {
      const result = await sql`
        delete from notification_deliveries where create_time < ${before} and state in ('sent', 'failed')`.execute(
        db,
      );
      return Number(result.numAffectedRows ?? 0);
    },
  };
}

/** The repo's type. */
export type DeliveriesRepo = ReturnType<typeof deliveriesRepo>;
