import { randomBytes, randomUUID } from "node:crypto";
import type { EventLevel } from "@cellfleet/contract";
import { listCountCache } from "../modules/devices/list-count-cache";
import { type NewDeviceRow, toJsonb } from "../platform/db/schema";
import type { TestApp } from "./test-app";

/** An ident no other test uses (Latin letters and digits only). */
export function uniqueDeviceIdent(prefix = "DEV"): string {
  return `${prefix}${randomBytes(5).toString("hex").toUpperCase()}`;
}

/** Options of buildDevice: any device column, tags as an array. */
export type BuildDeviceOptions = Partial<Omit<NewDeviceRow, "tags" | "meta" | "domain_id">> & {
  tags?: string[];
  meta?: Record<string, unknown>;
};

/**
 * Inserts a device of the domain straight into the database and, as every write of a router through
 * the server does, makes the cached list totals and pages forget the domain; answers its id and ident.
 */
export async function buildDevice(
  t: Pick<TestApp, "db" | "clock">,
  domainId: string,
  options: BuildDeviceOptions = {},
): Promise<{ id: string; ident: string }> {
  const device = await insertDeviceUnseen(t, domainId, options);
  listCountCache.invalidate(domainId);
  return device;
}

/** buildDevice behind the server's back, as another node's write it has not heard of yet. */
export async function insertDeviceUnseen(
  t: Pick<TestApp, "db" | "clock">,
  domainId: string,
  options: BuildDeviceOptions = {},
): Promise<{ id: string; ident: string }> {
  const { tags, meta, ...columns } = options;
  const id = columns.id ?? randomUUID();
  const ident = columns.ident ?? uniqueDeviceIdent();
  await t.db
    .insertInto("devices")
    .values({
      create_time: t.clock.now(),
      ...columns,
      id,
      ident,
      domain_id: domainId,
      tags: toJsonb(tags ?? []),
      meta: toJsonb(meta ?? {}),
    })
    .execute();
  return { id, ident };
}

/** Inserts an event of the domain (of a device when deviceId is given, counted on it) and answers its id. */
export async function buildEvent(
  t: Pick<TestApp, "db" | "clock">,
  domainId: string,
  options: {
    deviceId?: string | null;
    kind?: string;
    level?: EventLevel;
    message?: string;
    /** Raised while its kind was switched off: read by everyone, counted on no router. */
    isQuiet?: boolean;
    createTime?: Date;
  } = {},
): Promise<string> {
  const row = await t.db
    .insertInto("events")
    .values({
      domain_id: domainId,
      device_id: options.deviceId ?? null,
      kind: options.kind ?? "router_started",
      level: options.level ?? "info",
      message: options.message ?? "",
      is_read: options.isQuiet ?? false,
      is_quiet: options.isQuiet ?? false,
      create_time: options.createTime ?? t.clock.now(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  // Ingest counts the events that are not quiet on their router; so does this factory.
  if (options.deviceId && !options.isQuiet) {
    await t.db
      .updateTable("devices")
      .set((eb) => ({ events_total: eb("events_total", "+", 1) }))
      .where("id", "=", options.deviceId)
      .execute();
    listCountCache.invalidate(domainId);
  }
  return String(row.id);
}
