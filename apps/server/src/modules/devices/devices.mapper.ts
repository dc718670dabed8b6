import {
  computeDeviceStatus,
  type Device,
  type DomainSettings,
  signalQualityFromCsq,
} from "@cellfleet/contract";
import type { DeviceRow } from "../../platform/db/schema";

/** The columns the device DTO needs: every device column but the key itself, plus whether it is set. */
export type DeviceDtoRow = Omit<
  DeviceRow,
  | "aes_key"
  | "last_status"
  | "last_seq"
  | "seq_epoch"
  | "seq_offset"
  | "seq_prev_epoch"
  | "seq_prev_offset"
  | "command_types"
  | "zero_touch_config_id"
> & {
  aes_key?: string | null;
  has_key?: boolean;
};

/**
 * A device row as the API and the realtime socket send it. The status is computed here, at read
 * time, from the last contact and the domain's thresholds; the AES key is reduced to `has_key`.
 */
export function toDeviceDto(
  row: DeviceDtoRow,
  settings: Pick<DomainSettings, "status">,
  nowMs: number,
): Device {
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
    events: row.events_unread,
    signal: { csq: row.signal_csq, quality: signalQualityFromCsq(row.signal_csq) },
    network_mode: row.network_mode,
    wan_up: row.wan_up,
    has_backups: row.has_backups,
    has_journals: row.has_journals,
    has_key: row.has_key ?? (row.aes_key !== null && row.aes_key !== undefined && row.aes_key !== ""),
    create_time: row.create_time.getTime(),
    meta: row.meta ?? {},
  };
}
