import {
  COMMAND_CODES,
  COMMAND_TYPES_WITH_DOWNLOAD,
  type CommandFile,
  type CommandMessage,
  type CommandType,
  commandTopic,
  type ExecutionEvent,
  isUploadCommandType,
  MAX_DELIVERY_ATTEMPTS,
} from "@cellfleet/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../platform/context";
import type { DB } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { prepareDeviceDownload, prepareDeviceUpload } from "../files/device-transfers.service";
import { type ExecutionChanges, executionsRepo, type HeadRow } from "./executions.repo";
import { moveExecutions, publishCommandChanges, recountCommands } from "./executions.service";

/** How delivery waits: for an acknowledgement before publishing again, and for a result. */
export interface DeliveryTimings {
  /** A queued execution published this long ago without `accepted` is published again. */
  ackTimeoutMs: number;
  /** An execution sent or running without word for this long is timed out (the watchdog). */
  watchdogMs: number;
  /** How often the watchdog looks. */
  watchdogIntervalMs: number;
}

/** Defaults: a minute for the acknowledgement, half an hour for a result (firmware takes long). */
export const DEFAULT_DELIVERY_TIMINGS: DeliveryTimings = {
  ackTimeoutMs: 60_000,
  watchdogMs: 30 * 60_000,
  watchdogIntervalMs: 15_000,
};

/** The job that sends routers the heads of their queues. */
export const PUMP_JOB = "actions.pump";

declare module "../../platform/jobs/jobs" {
  interface JobPayloads {
    "actions.pump": PumpPayload;
  }
}
/** Routers a pump job covers at most. */
export const PUMP_CHUNK = 500;

/** Payload of a pump job: the routers, and whether to re-send what they already have (after a hello). */
export interface PumpPayload extends Record<string, unknown> {
  deviceIds: string[];
  isReconnect?: boolean;
}

/** Queues pump jobs for routers in the caller's transaction, in chunks. */
export async function enqueuePump(
  ctx: Pick<AppContext, "jobs">,
  trx: Kysely<DB>,
  deviceIds: readonly string[],
  isReconnect = false,
): Promise<void> {
  const unique = [...new Set(deviceIds)];
  for (let start = 0; start < unique.length; start += PUMP_CHUNK) {
    const payload: PumpPayload = { deviceIds: unique.slice(start, start + PUMP_CHUNK), isReconnect };
    await ctx.jobs.enqueue(trx, { kind: PUMP_JOB, payload });
  }
}

/**
 * Whether a router can run a command type: its hello named its types (`devices.command_types`,
 * comma-separated) and this is one of them, or it named none (then it takes every type).
 */
export function supportsCommandType(commandTypes: string | null, type: string): boolean {
  return commandTypes === null || commandTypes.split(",").includes(type);
}

/** What the router is sent: the command message of docs/device-protocol.md 4.4. */
async function commandMessageOf(
  ctx: AppContext,
  trx: Kysely<DB>,
  head: HeadRow,
  now: Date,
): Promise<CommandMessage> {
  const type = head.wire_type as CommandType;
  let file: CommandFile | undefined;
  if (isUploadCommandType(type)) {
    file = await prepareDeviceUpload(ctx, trx, {
      domainId: head.domain_id,
      deviceId: head.device_id,
      kind: type,
      commandId: head.command_id,
      executionId: head.id,
    });
  } else if (COMMAND_TYPES_WITH_DOWNLOAD.includes(type) && head.file_id) {
    file = await prepareDeviceDownload(ctx, trx, {
      domainId: head.domain_id,
      deviceId: head.device_id,
      fileId: head.file_id,
    });
  }
  return {
    v: 1,
    seq: now.getTime(),
    ts: now.getTime(),
    id: head.id,
    type,
    args: head.args,
    ...(file ? { file } : {}),
    ...(head.run_until ? { run_until: head.run_until.getTime() } : {}),
  };
}

/** Applies an event to executions by id, grouped by domain, recounting and pushing their commands. */
async function applyToHeads(
  ctx: AppContext,
  heads: readonly HeadRow[],
  event: ExecutionEvent,
  changes: ExecutionChanges = {},
): Promise<string[]> {
  const byDomain = new Map<string, HeadRow[]>();
  for (const head of heads) byDomain.set(head.domain_id, [...(byDomain.get(head.domain_id) ?? []), head]);
  const devices: string[] = [];
  for (const [domainId, rows] of byDomain) {
    const now = ctx.now();
    const moved = await ctx.db.transaction().execute(async (trx) => {
      const ids = rows.map((row) => row.id);
      const changed = await moveExecutions(trx, domainId, { ids }, event, now, changes);
      await recountCommands(
        trx,
        domainId,
        changed.map((row) => row.command_id),
        now,
      );
      return changed;
    });
    devices.push(...moved.map((row) => row.device_id));
    await publishCommandChanges(
      ctx,
      domainId,
      moved.map((row) => row.command_id),
      moved.map((row) => row.id),
    );
  }
  return devices;
}

/**
 * Sends each router the head of its queue (one execution at a time, oldest first): a queued one not
 * published lately, or, after a reconnect, also the one it has (it answers its latest status for an
 * id it knows). Heads past run-until expire; heads published too often give up; a head whose type
 * the router's hello did not name fails unsent (code 127, as the router would answer); then the next goes.
 */
export async function pumpDevices(
  ctx: AppContext,
  deviceIds: readonly string[],
  isReconnect: boolean,
  timings: DeliveryTimings,
): Promise<void> {
  let pending = [...deviceIds];
  // Each round either publishes or finishes heads; a router with N unsendable heads needs N rounds.
  for (let round = 0; round < 20 && pending.length > 0; round++) {
    const heads = await executionsRepo(ctx.db).findHeadsAcrossDomains(pending);
    const now = ctx.now();
    const expired: HeadRow[] = [];
    const exhausted: HeadRow[] = [];
    const unsupported: HeadRow[] = [];
    const send: HeadRow[] = [];
    for (const head of heads) {
      if (head.status === "queued" && head.run_until && head.run_until.getTime() <= now.getTime()) {
        expired.push(head);
        continue;
      }
      if (head.status === "queued" && !supportsCommandType(head.command_types, head.wire_type)) {
        unsupported.push(head);
        continue;
      }
      if (ctx.deviceLink.isConnected(head.ident) === false) continue;
      const isFresh =
        head.last_publish_time !== null &&
        now.getTime() - head.last_publish_time.getTime() < timings.ackTimeoutMs;
      if (head.status === "queued") {
        if (isFresh && !isReconnect) continue;
        if (head.attempts >= MAX_DELIVERY_ATTEMPTS) exhausted.push(head);
        else send.push(head);
      } else if (isReconnect) send.push(head);
    }
    const unsendable = send.length > 0 ? await publishHeads(ctx, send, now) : [];
    pending = [
      ...(await applyToHeads(ctx, unsendable, { type: "finished", code: COMMAND_CODES.transferFailed })),
      ...(await applyToHeads(ctx, expired, { type: "expire" })),
      ...(await applyToHeads(ctx, exhausted, { type: "give_up" })),
      ...(await applyToHeads(
        ctx,
        unsupported,
        { type: "finished", code: COMMAND_CODES.unsupported },
        { code: COMMAND_CODES.unsupported, output: "The router does not support this command type" },
      )),
    ];
    isReconnect = false;
  }
}

/** Prepares the heads' messages (file URLs) and counts the publishes in one transaction, then publishes. */
async function publishHeads(ctx: AppContext, heads: readonly HeadRow[], now: Date): Promise<HeadRow[]> {
  const unsendable: HeadRow[] = [];
  const messages = await ctx.db.transaction().execute(async (trx) => {
    const built: Array<{ head: HeadRow; message: CommandMessage }> = [];
    for (const head of heads) {
      try {
        built.push({ head, message: await commandMessageOf(ctx, trx, head, now) });
      } catch (error) {
        // The command's file is gone (or the router): this execution cannot be sent, the others can.
        if (!(error instanceof AppError)) throw error;
        unsendable.push(head);
      }
    }
    // Another pump of the same router may have published the head since it was read: only what
    // this one claims goes out, so a head is published once however many pumps run.
    const claimed = new Set(
      await executionsRepo(trx).claimPublishAcrossDomains(
        built.map(({ head }) => ({ id: head.id, seen: head.last_publish_time })),
        now,
      ),
    );
    return built.filter(({ head }) => claimed.has(head.id));
  });
  await Promise.all(
    messages.map(({ head, message }) =>
      ctx.deviceLink.publish(commandTopic(head.ident), JSON.stringify(message)),
    ),
  );
  return unsendable;
}
