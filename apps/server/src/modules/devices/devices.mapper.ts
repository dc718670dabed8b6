import {
  computeDeviceStatus,
  type Device,
  type DevicePush,
  type DomainSettings,
  signalQualityFromCsq,
} from "@cellfleet/contract";
import type { DeviceRow } from "../../platform/db/schema";

/**
 * The columns a pushed device needs: every device column but the key itself (plus whether it is
 * set) and the shared event total (a count of unread events is the viewer's own, ADR 025).
 */
export type DevicePushRow = Omit<
  DeviceRow,
  | "aes_key"
  | "events_total"
  | "last_status"
  | "last_seq"
  | "seq_epoch"
  | "seq_offset"
  | "seq_prev_epoch"
  | "seq_prev_offset"
  | "command_types"
  | "zero_touch_config_id"
  | "connection_node"
> & {
  aes_key?: string | null;
  has_key?: boolean;
};

/** A device row as one user sees it: with the number of its events this user has not read. */
export type DeviceDtoRow = DevicePushRow & { events_unread: number };

/**
 * A device as the API answers it to one user: the push (below) and the user's unread count.
 */
export function toDeviceDto(
  row: DeviceDtoRow,
  settings: Pick<DomainSettings, "status">,
  nowMs: number,
): Device {
  return { ...toDevicePush(row, settings, nowMs), events: row.events_unread };
}

/**
 * A device row as the realtime socket pushes it to every browser of the domain: without the event
 * count, which differs from user to user (each browser keeps its own). The status is computed here,
 * at read time, from the last contact and the domain's thresholds; the AES key is reduced to
 * `has_key`.
 */
export function toDevicePush(
  row: DevicePushRow,
  settings: Pick<DomainSettings, "status">,
  nowMs: number,
): DevicePush {
  const time = row.last_contact === null ? null : row.last_contact.getTime();
  return {
    _id: row.id,
    ident: row.ident,
    description: row.description,
    tags: Array.isArray(row.tags) ? row.tags : [],
    board: { model: row.model },
    firmware: row.firmware,
    serial: row.serial,
    time,
    status: computeDeviceStatus(time, nowMs, settings.status),
    connected: row.connected,
    connection_time: row.connection_time === null ? null : row.connection_time.getTime(),
    signal: { csq: row.signal_csq, quality: signalQualityFromCsq(row.signal_csq) },
    network_mode: row.network_mode,
    wan_up: row.wan_up,
    has_backups: row.has_backups,
    has_journals: row.has_journals,
    has_key: row.has_key ?? (row.aes_key !== null && row.aes_key !== undefined && row.aes_key !== ""),
    create_time: row.create_time.getTime(),
    position:
      row.latitude === null || row.longitude === null
        ? null
        : { latitude: row.latitude, longitude: row.longitude, source: row.position_source ?? "admin" },
    meta: row.meta ?? {},
  };
}
