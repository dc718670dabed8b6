import { DATA_PLAN_MAX_BYTES, type SimUsage } from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControlLabel from "@mui/material/FormControlLabel";
import MenuItem from "@mui/material/MenuItem";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { apiErrorText } from "../../../app/api/handleTransportError";
import { useSetPlan } from "../insight.queries";

const UNITS = { MB: 1024 ** 2, GB: 1024 ** 3 } as const;
type Unit = keyof typeof UNITS;

interface PlanDialogProps {
  sim: SimUsage;
  /** The tags of the router the SIM is in: a plan may be set for every SIM under one of them. */
  tags: readonly string[];
  onClose: () => void;
}

/** Sets a data plan of the SIM, or of one of its router's tags, with its size and reset day (admins). */
export function PlanDialog({ sim, tags, onClose }: PlanDialogProps) {
  const { t } = useTranslation();
  const save = useSetPlan();
  const current = sim.plan;
  const isGigabytes = !current || current.plan_bytes >= UNITS.GB;
  const [unit, setUnit] = useState<Unit>(isGigabytes ? "GB" : "MB");
  const [size, setSize] = useState(current ? String(+(current.plan_bytes / UNITS[unit]).toFixed(2)) : "");
  const [resetDay, setResetDay] = useState(String(current?.reset_day ?? 1));
  const [scope, setScope] = useState(current?.source === "tag" && current.tag ? `tag:${current.tag}` : "sim");
  const bytes = Math.round(Number(size.replace(",", ".")) * UNITS[unit]);
  const day = Number(resetDay);
  const isSizeValid = Number.isFinite(bytes) && bytes >= 1 && bytes <= DATA_PLAN_MAX_BYTES;
  const isDayValid = Number.isInteger(day) && day >= 1 && day <= 31;
  const target = scope === "sim" ? { iccid: sim.iccid } : { tag: scope.slice(4) };

  const submit = (plan: { plan_bytes: number; reset_day: number } | null) =>
    save.mutate({ ...target, plan }, { onSuccess: onClose });

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{t("insight.plan.title")}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <RadioGroup value={scope} onChange={(event) => setScope(event.target.value)}>
            <FormControlLabel
              value="sim"
              control={<Radio />}
              label={t("insight.plan.forSim", { iccid: sim.iccid })}
            />
            {tags.map((tag) => (
              <FormControlLabel
                key={tag}
                value={`tag:${tag}`}
                control={<Radio />}
                label={t("insight.plan.forTag", { tag })}
              />
            ))}
          </RadioGroup>
          <Stack direction="row" spacing={1}>
            <TextField
              label={t("insight.plan.size")}
              value={size}
              onChange={(event) => setSize(event.target.value)}
              error={size !== "" && !isSizeValid}
              inputMode="decimal"
              autoFocus
              sx={{ flex: 1 }}
              slotProps={{ htmlInput: { "data-testid": "plan-size" } }}
            />
            <TextField
              select
              label={t("insight.plan.unit")}
              value={unit}
              onChange={(event) => setUnit(event.target.value as Unit)}
              sx={{ width: 96 }}
            >
              {Object.keys(UNITS).map((key) => (
                <MenuItem key={key} value={key}>
                  {key}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          <TextField
            label={t("insight.plan.resetDay")}
            value={resetDay}
            onChange={(event) => setResetDay(event.target.value)}
            error={!isDayValid}
            helperText={t("insight.plan.resetDayHelp")}
            inputMode="numeric"
          />
          {save.isError ? <Alert severity="error">{apiErrorText(save.error)}</Alert> : null}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ flexWrap: "wrap" }}>
        {current && (scope === "sim" ? current.source === "sim" : current.source === "tag") ? (
          <Button color="error" onClick={() => submit(null)} disabled={save.isPending}>
            {t("insight.plan.remove")}
          </Button>
        ) : null}
        <Button onClick={onClose}>{t("common.cancel")}</Button>
        <Button
          variant="contained"
          disabled={!isSizeValid || !isDayValid || save.isPending}
          onClick={() => submit({ plan_bytes: bytes, reset_day: day })}
          data-testid="plan-save"
        >
          {t("common.save")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
