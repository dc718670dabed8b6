import type { DeviceDetail, DevicesSocketMessage, FleetEvent } from "@cellfleet/contract";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import { devicesKeys } from "../../app/queryKeys";
import { useRealtime } from "../../app/realtime/useRealtime";
import { devicePushLog, patchDeviceDetail, patchDevicePage } from "./devicePushes";
import type { DeviceListPage } from "./devices.api";

const TOTALS_REFRESH_MS = 1000;

/**
 * New events nobody can have read yet, counted per router, from an `alerts` message (events raised
 * while their kind is switched off arrive read, and count on no router).
 */
export function unreadEventsByDevice(message: unknown): Map<string, number> {
  const counts = new Map<string, number>();
  const content = (message as { content?: unknown })?.content;
  if (!Array.isArray(content)) return counts;
  // Events as the server's mapper builds them (ADR 026: not checked again on the start path).
  for (const event of content as Partial<FleetEvent>[]) {
    if (event.read !== false || !event.device?._id) continue;
    const id = event.device._id;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/** A list page with each router's own count raised by the new events it got. */
export function addDeviceEvents(page: DeviceListPage, added: ReadonlyMap<string, number>): DeviceListPage {
  if (!page.rows.some((row) => added.has(row._id))) return page;
  const rows = page.rows.map((row) => {
    const count = added.get(row._id);
    return count ? { ...row, events: row.events + count } : row;
  });
  return { ...page, rows };
}

/**
 * Keeps cached device lists, device pages and status totals in step with the realtime socket
 * (`devices` update/put/delete): rows on screen are patched in place; totals are re-read at most
 * once a second; a new device (put) re-reads the list pages, since where it lands depends on the
 * server's sort and filters. The routers' event counts are this user's own (ADR 025), so pushes do
 * not carry them: new events (`alerts`) raise them here, and events marked read (`events`, by this
 * user in another tab, or anyone) re-read the lists and device pages.
 */
export function useDeviceLiveUpdates(): void {
  const queryClient = useQueryClient();
  const refreshTotals = useMemo(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    return {
      schedule: () => {
        if (timer !== undefined) return;
        timer = setTimeout(() => {
          timer = undefined;
          void queryClient.invalidateQueries({ queryKey: devicesKeys.totals() });
        }, TOTALS_REFRESH_MS);
      },
      cancel: () => clearTimeout(timer),
    };
  }, [queryClient]);
  useEffect(() => refreshTotals.cancel, [refreshTotals]);

  useRealtime("devices", (message) => {
    // The socket's envelope is checked by the server; its devices are the mapper's (ADR 026).
    const { action, content } = message as DevicesSocketMessage;
    devicePushLog.record(action, content);
    queryClient.setQueriesData<DeviceListPage>({ queryKey: devicesKeys.lists() }, (page) =>
      page ? patchDevicePage(page, action, content) : page,
    );
    for (const device of content) {
      if (action === "delete") continue;
      queryClient.setQueryData<DeviceDetail>(devicesKeys.detail(device._id), (detail) =>
        detail ? patchDeviceDetail(detail, action, [device]) : detail,
      );
    }
    if (action === "put") void queryClient.invalidateQueries({ queryKey: devicesKeys.lists() });
    refreshTotals.schedule();
  });

  useRealtime("alerts", (message) => {
    const added = unreadEventsByDevice(message);
    if (added.size === 0) return;
    queryClient.setQueriesData<DeviceListPage>({ queryKey: devicesKeys.lists() }, (page) =>
      page ? addDeviceEvents(page, added) : page,
    );
    for (const [id, count] of added) {
      queryClient.setQueryData<DeviceDetail>(devicesKeys.detail(id), (detail) =>
        detail ? { ...detail, device: { ...detail.device, events: detail.device.events + count } } : detail,
      );
    }
  });

  useRealtime("events", () => {
    void queryClient.invalidateQueries({ queryKey: devicesKeys.lists() });
    void queryClient.invalidateQueries({ queryKey: devicesKeys.details() });
  });
}
