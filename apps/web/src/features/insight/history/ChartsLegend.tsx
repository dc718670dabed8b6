import { type SignalHistory, TIMELINE_STATES } from "@cellfleet/contract";
import Box from "@mui/material/Box";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { formatMoment } from "../../../app/format";
import { changeLabel } from "./chartData";
import type { ChartPalette } from "./chartPalette";

function Swatch({ color, label, isLine = false }: { color: string; label: string; isLine?: boolean }) {
  return (
    <Stack direction="row" spacing={0.75} sx={{ alignItems: "center" }}>
      <Box
        sx={
          isLine
            ? { width: 0, height: 14, borderLeft: `2px dashed ${color}` }
            : { width: 14, height: 14, borderRadius: 0.5, bgcolor: color, border: 1, borderColor: "divider" }
        }
      />
      <Typography variant="caption">{label}</Typography>
    </Stack>
  );
}

/** What the colours and lines of the charts mean, in the interface language. */
export function ChartsLegend({ palette }: { palette: ChartPalette }) {
  const { t } = useTranslation();
  return (
    <Stack spacing={0.75} data-testid="charts-legend">
      <Stack direction="row" sx={{ flexWrap: "wrap", columnGap: 2, rowGap: 0.5 }}>
        {(["excellent", "normal", "midCell", "cellEdge"] as const).map((quality) => (
          <Swatch key={quality} color={palette.band[quality]} label={t(`fleet.signal.${quality}`)} />
        ))}
        <Swatch color={palette.range} label={t("insight.signal.range")} />
        <Swatch color={palette.outage} label={t("insight.signal.outage")} />
        <Swatch color={palette.change} label={t("insight.signal.change")} isLine />
        <Swatch color={palette.reboot} label={t("insight.signal.reboot")} isLine />
      </Stack>
      <Stack direction="row" sx={{ flexWrap: "wrap", columnGap: 2, rowGap: 0.5 }}>
        {TIMELINE_STATES.map((state) => (
          <Swatch key={state} color={palette.timeline[state]} label={t(`insight.timeline.${state}`)} />
        ))}
      </Stack>
    </Stack>
  );
}

/** The changes and reboots of the range as text, newest first, beside the markers they draw. */
export function ChangesList({ history }: { history: SignalHistory }) {
  const { t, i18n } = useTranslation();
  const items = [
    ...history.changes.map((change) => {
      const label = changeLabel(change);
      return {
        time: change.time,
        text: label
          ? t(`insight.changes.${label.field}`, { modem: change.modem, change: label.text })
          : change.modem,
      };
    }),
    ...history.reboots.map((time) => ({ time, text: t("insight.signal.reboot") })),
  ].sort((a, b) => b.time - a.time);
  if (items.length === 0) return null;
  const shown = items.slice(0, 8);
  return (
    <Box data-testid="changes-list">
      <Typography variant="subtitle2">{t("insight.signal.changes")}</Typography>
      {shown.map((item) => (
        <Typography key={`${item.time}-${item.text}`} variant="body2" color="text.secondary">
          {formatMoment(item.time, i18n.language)} — {item.text}
        </Typography>
      ))}
      {items.length > shown.length ? (
        <Typography variant="caption" color="text.secondary">
          {t("insight.signal.more", { count: items.length - shown.length })}
        </Typography>
      ) : null}
    </Box>
  );
}
