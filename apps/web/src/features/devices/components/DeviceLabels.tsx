import type { DeviceStatus } from "@cellfleet/contract";
import Chip from "@mui/material/Chip";
import { useTranslation } from "react-i18next";

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
