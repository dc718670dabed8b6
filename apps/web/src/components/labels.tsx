import { relativeTimeLabel, type SignalQuality } from "@cellfleet/contract";
import Typography from "@mui/material/Typography";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { formatClock, formatMoment } from "../app/format";

// The time and signal labels every list of the console shows (devices, events, commands, scripts,
// zero-touch adoptions), apart from any one feature.

const SIGNAL_COLORS: Record<SignalQuality, string> = {
  cellEdge: "error.main",
  midCell: "warning.main",
  normal: "info.main",
  excellent: "success.main",
  unknown: "text.secondary",
};

/** The hover text of a signal label: the CSQ the quality comes from, when known. */
export function signalTitle(csq: number | null | undefined): string | undefined {
  return csq === null || csq === undefined ? undefined : `CSQ ${csq}`;
}

/** The text of a relative time ('just now', '5 min ago', 'never'), as RelativeTime shows it. */
export function relativeTimeText(t: TFunction, time: number | null, now: number): string {
  if (time === null) return t("fleet.time.never");
  const label = relativeTimeLabel(time, now);
  return label.key === "justNow"
    ? t("fleet.time.justNow")
    : t(`fleet.time.${label.key}`, { count: label.count });
}

// Hover texts are native `title`s, not MUI Tooltips: these labels sit in every row of long tables,
// where a Tooltip apiece was the heaviest part of a row's render.

/** A signal quality label (Cell Edge … Excellent), with the CSQ it comes from as its hover text. */
export function SignalLabel({ quality, csq }: { quality: SignalQuality; csq?: number | null }) {
  const { t } = useTranslation();
  return (
    <Typography
      variant="body2"
      component="span"
      title={signalTitle(csq)}
      sx={{ color: SIGNAL_COLORS[quality], whiteSpace: "nowrap" }}
    >
      {t(`fleet.signal.${quality}`)}
    </Typography>
  );
}

/** How long ago a moment was (spec section 9: under 30 minutes 'just now'); the exact time on hover. */
export function RelativeTime({
  time,
  now,
  hasClock = false,
}: {
  time: number | null;
  now: number;
  hasClock?: boolean;
}) {
  const { t, i18n } = useTranslation();
  if (time === null) return <>{t("fleet.time.never")}</>;
  return (
    <span title={formatMoment(time, i18n.language)} style={{ whiteSpace: "nowrap" }}>
      {relativeTimeText(t, time, now)}
      {hasClock ? (
        <span data-testid="time-clock" style={{ display: "block", fontSize: "0.75rem", opacity: 0.7 }}>
          {formatClock(time, now, i18n.language)}
        </span>
      ) : null}
    </span>
  );
}
