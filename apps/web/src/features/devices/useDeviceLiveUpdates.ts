import type { DeviceDetail } from "@cellfleet/contract";
import { type Device, DevicesSocketMessageSchema } from "@cellfleet/contract";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import { useRealtime } from "../../app/realtime/useRealtime";
import type { DeviceListPage } from "./devices.api";
import { devicesKeys } from "./keys";

const TOTALS_REFRESH_MS = 1000;

/** A list page with the socket's devices applied: updated rows replaced, deleted rows dropped. */
export function patchDevicePage(
  page: DeviceListPage,
  action: "update" | "put" | "delete",
  devices: readonly Device[],
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
    return next;
  });
  return changed ? { ...page, rows } : page;
}

/**
 * Keeps cached device lists, device pages and status totals in step with the realtime socket
 * (`devices` update/put/delete): rows on screen are patched in place; totals are re-read at most
 * once a second; a new device (put) re-reads the list pages, since where it lands depends on the
 * server's sort and filters.
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
    const parsed = DevicesSocketMessageSchema.safeParse(message);
    if (!parsed.success) return;
    const { action, content } = parsed.data;
    queryClient.setQueriesData<DeviceListPage>({ queryKey: devicesKeys.lists() }, (page) =>
      page ? patchDevicePage(page, action, content) : page,
    );
    for (const device of content) {
      if (action === "delete") continue;
      queryClient.setQueryData<DeviceDetail>(devicesKeys.detail(device._id), (detail) =>
        detail ? { ...detail, device } : detail,
      );
    }
    if (action === "put") void queryClient.invalidateQueries({ queryKey: devicesKeys.lists() });
    refreshTotals.schedule();
  });
}
