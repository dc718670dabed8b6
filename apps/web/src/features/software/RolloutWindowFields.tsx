import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { windowOf } from "../../components/time-window/timeWindow";

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
