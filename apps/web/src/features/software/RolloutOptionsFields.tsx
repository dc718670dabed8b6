import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** The rollout's canary percentage and wave size, as the dry run and the start both take them. */
export function RolloutOptionsFields(props: {
  percent: string;
  waveSize: string;
  onPercentChange: (value: string) => void;
  onWaveSizeChange: (value: string) => void;
  /** The button that acts on these options (dry run or start). */
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ alignItems: { sm: "center" } }}>
      <TextField
        size="small"
        type="number"
        sx={{ minWidth: 220 }}
        label={t("software.rollout.canaryPercent")}
        value={props.percent}
        onChange={(event) => props.onPercentChange(event.target.value)}
        slotProps={{ htmlInput: { min: 1, max: 100 } }}
      />
      <TextField
        size="small"
        type="number"
        sx={{ minWidth: 180 }}
        label={t("software.rollout.waveSize")}
        value={props.waveSize}
        onChange={(event) => props.onWaveSizeChange(event.target.value)}
        slotProps={{ htmlInput: { min: 1 } }}
      />
      {props.children}
    </Stack>
  );
}
