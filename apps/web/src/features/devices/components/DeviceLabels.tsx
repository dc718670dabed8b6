import type { Device, DeviceStatus } from "@cellfleet/contract";
import Chip from "@mui/material/Chip";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { formatClock } from "../../../app/format";
import { relativeTimeText } from "../../../components/labels";

/** Chip colours of device statuses (spec section 4). */
export const STATUS_COLORS: Record<DeviceStatus, "error" | "warning" | "default" | "success"> = {
  critical: "error",
  warning: "warning",
  pending: "default",
  online: "success",
};

/** A device status as a coloured chip; a pending one says, on hover, that it waits for its first contact. */
export function StatusChip({ status, isLong = false }: { status: DeviceStatus; isLong?: boolean }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      color={STATUS_COLORS[status]}
      label={isLong && status === "pending" ? t("insight.connect.waitingChip") : t(`fleet.status.${status}`)}
      title={status === "pending" ? t("insight.connect.waitingChip") : undefined}
      // The long label wraps inside a narrow column instead of being cut.
      sx={isLong ? { height: "auto", py: 0.25, "& .MuiChip-label": { whiteSpace: "normal" } } : undefined}
      data-testid="status-chip"
      data-status={status}
    />
  );
}

/** The connection a device shows: what the gateway knows now (ADR 032), or unknown. */
export type ConnectionState = "connected" | "disconnected" | "unknown";

/** The connection state of a device: its `connected` as the gateway saw it; null is unknown. */
export function connectionState(device: Pick<Device, "connected">): ConnectionState {
  if (device.connected === null) return "unknown";
  return device.connected ? "connected" : "disconnected";
}

/** The hover text of a connection: since when, as a relative time and a clock, or why it is unknown. */
export function connectionHint(
  t: TFunction,
  device: Pick<Device, "connected" | "connection_time">,
  now: number,
  language: string,
): string {
  const state = connectionState(device);
  if (state === "unknown" || device.connection_time === null) return t("fleet.connection.unknownHint");
  const params = {
    ago: relativeTimeText(t, device.connection_time, now),
    clock: formatClock(device.connection_time, now, language),
  };
  return t(`fleet.connection.${state}Hint`, params);
}

const CONNECTION_COLORS = { connected: "success", disconnected: "error", unknown: "default" } as const;

/** A device's connection now as a chip (the device page), with since when on hover and under it. */
export function ConnectionChip({ device, now }: { device: Device; now: number }) {
  const { t, i18n } = useTranslation();
  const state = connectionState(device);
  return (
    <Chip
      size="small"
      variant={state === "disconnected" ? "filled" : "outlined"}
      color={CONNECTION_COLORS[state]}
      label={t(`fleet.connection.${state}`)}
      title={connectionHint(t, device, now, i18n.language)}
      data-testid="device-connection"
      data-connected={state}
    />
  );
}
