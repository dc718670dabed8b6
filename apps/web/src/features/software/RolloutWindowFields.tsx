import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";

/** "HH:MM" → minute of the day; null for an empty or malformed value. */
export function minuteOfTime(value: string): number | null {
  const match = /^(\d{2}):(\d{2})$/.exec(value);
  if (!match) return null;
  const minute = Number(match[1]) * 60 + Number(match[2]);
  return minute < 24 * 60 ? minute : null;
}

/**
 * The start's window: null with both ends empty, the minutes with both set, "partial" when only
 * one is, "empty" when they are equal (a window that never opens).
 */
export function windowOf(
  start: string,
  end: string,
): { start: number; end: number } | null | "partial" | "empty" {
  const from = minuteOfTime(start);
  const to = minuteOfTime(end);
  if (from === null && to === null) return null;
  if (from === null || to === null) return "partial";
  return from === to ? "empty" : { start: from, end: to };
}

/** A rollout's optional maintenance window: two times of day, read in each router's domain's zone. */
export function RolloutWindowFields(props: {
  start: string;
  end: string;
  onStartChange: (value: string) => void;
  onEndChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  const maintenance = windowOf(props.start, props.end);
  const error =
    maintenance === "partial" || maintenance === "empty" ? t(`software.rollout.window.${maintenance}`) : null;
  return (
    <Stack spacing={0.5}>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
        <TextField
          size="small"
          type="time"
          sx={{ minWidth: 180 }}
          label={t("software.rollout.window.start")}
          value={props.start}
          onChange={(event) => props.onStartChange(event.target.value)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { "data-testid": "rollout-window-start" } }}
        />
        <TextField
          size="small"
          type="time"
          sx={{ minWidth: 180 }}
          label={t("software.rollout.window.end")}
          value={props.end}
          onChange={(event) => props.onEndChange(event.target.value)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { "data-testid": "rollout-window-end" } }}
        />
      </Stack>
      <Typography variant="body2" color={error ? "error" : "text.secondary"}>
        {error ?? t("software.rollout.window.hint")}
      </Typography>
    </Stack>
  );
}
