import type { SimUsage } from "@cellfleet/contract";
import Box from "@mui/material/Box";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { formatBytes } from "../../../components/format";

/** Height of the busiest day's bar. */
const BARS_PX = 64;

const dayFormats = new Map<string, Intl.DateTimeFormat>();
/** A UTC day (`YYYY-MM-DD`) as "3 Mar" in the interface language. */
export function formatDay(day: string, language: string): string {
  let format = dayFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { day: "numeric", month: "short", timeZone: "UTC" });
    dayFormats.set(language, format);
  }
  return format.format(Date.parse(`${day}T00:00:00Z`));
}

/**
 * A SIM's last 31 days as bars, received below sent, each scaled to the busiest day; the exact
 * figures on hover. Plain boxes: 31 bars need no chart library.
 */
export function UsageBars({ days }: { days: SimUsage["days"] }) {
  const { t, i18n } = useTranslation();
  const peak = Math.max(1, ...days.map((day) => day.rx + day.tx));
  const px = (bytes: number) => Math.round((bytes / peak) * BARS_PX);
  return (
    <Box data-testid="usage-bars">
      <Stack
        direction="row"
        sx={{ alignItems: "flex-end", height: BARS_PX, gap: "2px", borderBottom: 1, borderColor: "divider" }}
      >
        {days.map((day) => {
          const title = `${formatDay(day.day, i18n.language)}: ${t("insight.usage.rx")} ${formatBytes(day.rx)}, ${t("insight.usage.tx")} ${formatBytes(day.tx)}`;
          return (
            <Stack key={day.day} title={title} sx={{ flex: 1, minWidth: 0, justifyContent: "flex-end" }}>
              {day.tx > 0 ? (
                <Box sx={{ height: Math.max(1, px(day.tx)), bgcolor: "secondary.main" }} />
              ) : null}
              {day.rx > 0 ? <Box sx={{ height: Math.max(1, px(day.rx)), bgcolor: "primary.main" }} /> : null}
            </Stack>
          );
        })}
      </Stack>
      <Stack direction="row" sx={{ justifyContent: "space-between", mt: 0.5 }}>
        <Typography variant="caption" color="text.secondary">
          {days[0] ? formatDay(days[0].day, i18n.language) : ""}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {days.at(-1) ? formatDay(days.at(-1)?.day ?? "", i18n.language) : ""}
        </Typography>
      </Stack>
      <Typography variant="caption" color="text.secondary" component="p">
        {t("insight.usage.legend")}
      </Typography>
    </Box>
  );
}
