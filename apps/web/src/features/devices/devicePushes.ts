import type { DeviceDetail, DevicePushChange } from "@cellfleet/contract";
import { PushLog } from "../../app/realtime/pushLog";
import type { DeviceListPage } from "./devices.api";

// The socket's `devices` pushes as they apply to cached pages, and a short log of them, so a page
// read while they came has them applied again: the server may have read its rows before a change
// that was pushed while the answer was on its way, and the answer would put the older row back
// with nothing to push again (a router that dropped off reading connected for good).

/**
 * A list page with the socket's devices applied: each pushed device (a whole row, or only its
 * changed fields, ADR 035) merged over its row, deleted rows dropped. A pushed device has no event
 * count (each user's own, ADR 025): a row keeps the count it has.
 */
export function patchDevicePage(
  page: DeviceListPage,
  action: "update" | "put" | "delete",
  devices: readonly DevicePushChange[],
): DeviceListPage {
  const byId = new Map(devices.map((device) => [device._id, device]));
  if (action === "delete") {
    const rows = page.rows.filter((row) => !byId.has(row._id));
    const removed = page.rows.length - rows.length;
    if (removed === 0) return page;
    const header = page.header ? { ...page.header, total: Math.max(0, page.header.total - removed) } : null;
    return { ...page, rows, header };
  }
  let changed = false;
  const rows = page.rows.map((row) => {
    const next = byId.get(row._id);
    if (!next) return row;
    changed = true;
    return { ...row, ...next, events: row.events };
  });
  return changed ? { ...page, rows } : page;
}

/** A device page with the socket's changes of its device merged in (its own event count kept). */
export function patchDeviceDetail(
  detail: DeviceDetail,
  action: "update" | "put" | "delete",
  devices: readonly DevicePushChange[],
): DeviceDetail {
  if (action === "delete") return detail;
  let device = detail.device;
  for (const change of devices) {
    if (change._id === device._id) device = { ...device, ...change, events: detail.device.events };
  }
  if (device === detail.device) return detail;
  return { ...detail, device };
}

interface DevicePush {
  readonly action: "update" | "delete";
  readonly devices: readonly DevicePushChange[];
}

/**
 * The `devices` updates and deletes of the last minute (`PushLog`). A read takes `mark()` as it
 * starts and answers `onPage`/`onDetail(mark, …)`: its rows with every push since then applied again,
 * in order (a change is field values, so one the server had already read comes out the same).
 * A put is not kept: it makes the lists read again.
 */
export class DevicePushLog {
  private readonly log: PushLog<DevicePush>;

  constructor(now: () => number = Date.now) {
    this.log = new PushLog(now);
  }

  record(action: "update" | "put" | "delete", devices: readonly DevicePushChange[]): void {
    if (action === "put" || devices.length === 0) return;
    this.log.record({ action, devices });
  }

  /** Where the log is now: what a read starting now has not seen. */
  mark(): number {
    return this.log.mark();
  }

  /** A list page read since `mark`, with the pushes since then applied. */
  onPage(mark: number, page: DeviceListPage): DeviceListPage {
    return this.log
      .since(mark)
      .reduce((next, push) => patchDevicePage(next, push.action, push.devices), page);
  }

  /** A device page read since `mark`, with the pushes since then applied. */
  onDetail(mark: number, detail: DeviceDetail): DeviceDetail {
    return this.log
      .since(mark)
      .reduce((next, push) => patchDeviceDetail(next, push.action, push.devices), detail);
  }
}

/** The console's one log: the live hook records into it, the list's and device page's reads use it. */
export const devicePushLog = new DevicePushLog();
