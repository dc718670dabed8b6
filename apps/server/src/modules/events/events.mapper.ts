import type { FleetEvent } from "@cellfleet/contract";
import type { EventRow } from "../../platform/db/schema";

/**
 * An event row as the API sends it; `device` is the event's device when it has one (looked up or
 * joined). `read` is the reader's own read state (per user) when the row carries it.
 */
export function toEventDto(
  row: EventRow & { read_by_me?: boolean },
  device?: { id: string; ident: string } | null,
): FleetEvent {
  return {
    _id: String(row.id),
    level: row.level,
    kind: row.kind,
    read: row.read_by_me ?? row.is_read,
    author_id: row.author_id,
    message: row.message,
    device: device ? { _id: device.id, ident: device.ident } : null,
    details: row.details ?? {},
    device_time: row.device_time === null ? null : row.device_time.getTime(),
    create_time: row.create_time.getTime(),
  };
}
