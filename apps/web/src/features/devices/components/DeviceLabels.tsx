import { type DeviceStatus, relativeTimeLabel, type SignalQuality } from "@cellfleet/contract";
import Chip from "@mui/material/Chip";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";

/** Chip colours of device statuses (spec section 4). */
export const STATUS_COLORS: Record<DeviceStatus, "error" | "warning" | "default" | "success"> = {
  critical: "error",
  warning: "warning",
  pending: "default",
  online: "success",
};

/** A device status as a coloured chip. */
export function StatusChip({ status }: { status: DeviceStatus }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      color={STATUS_COLORS[status]}
      label={t(`fleet.status.${status}`)}
      data-testid="status-chip"
      data-status={status}
    />
  );
}

const SIGNAL_COLORS: Record<SignalQuality, string> = {
  cellEdge: "error.main",
  midCell: "warning.main",
  normal: "info.main",
  excellent: "success.main",
  unknown: "text.secondary",
};

/** A signal quality label (Cell Edge … Excellent), with the CSQ it comes from as a tooltip. */
export function SignalLabel({ quality, csq }: { quality: SignalQuality; csq?: number | null }) {
  const { t } = useTranslation();
  const label = (
    <Typography variant="body2" component="span" sx={{ color: SIGNAL_COLORS[quality], whiteSpace: "nowrap" }}>
      {t(`fleet.signal.${quality}`)}
    </Typography>
  );
  if (csq === null || csq === undefined) return label;
  return <Tooltip title={`CSQ ${csq}`}>{label}</Tooltip>;
}

/** How long ago a moment was (spec section 9: under 30 minutes 'just now'); the exact time on hover. */
export function RelativeTime({ time, now }: { time: number | null; now: number }) {
  const { t, i18n } = useTranslation();
  if (time === null) return <>{t("fleet.time.never")}</>;
  const label = relativeTimeLabel(time, now);
  const text =
    label.key === "justNow" ? t("fleet.time.justNow") : t(`fleet.time.${label.key}`, { count: label.count });
  return (
    <Tooltip title={new Date(time).toLocaleString(i18n.language)}>
      <span style={{ whiteSpace: "nowrap" }}>{text}</span>
    </Tooltip>
  );
}
