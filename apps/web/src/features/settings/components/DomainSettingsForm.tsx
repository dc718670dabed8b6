import { type DomainSettings, REMOTE_ACCESS_LIMIT_RANGES, validateTimeZone } from "@cellfleet/contract";
import Autocomplete from "@mui/material/Autocomplete";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Grid from "@mui/material/Grid";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useMemo } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { formError } from "../../../app/messages/texts";
import { FormTextField, FormToggle } from "../../../components/forms/formFields";
import { rule as check } from "../../../components/forms/formRules";
import { useSaveDomainSettings } from "../settings.queries";
import {
  copiesError,
  REMOTE_ACCESS_FIELDS,
  remoteAccessError,
  rolloutWindowOf,
  type SettingsFormValues,
  THRESHOLD_FIELDS,
  type ThresholdField,
  thresholdError,
  timeZoneChoices,
  toSettingsBody,
  toSettingsForm,
} from "../settingsForm";

const CELL = { xs: 12, sm: 6 } as const;
const THRESHOLD_CELL = { xs: 12, sm: 4 } as const;

/**
 * Status thresholds, saved copies, the domain's time zone (spec sections 2, 3 and 5; the zone
 * schedule rules' times are read in, ADR 020), rollouts (ADR 031) and remote access's limits
 * (ADR 038). Every field is checked as it is
 * left and again on save by the contract's validators; a threshold is re-checked when the one
 * above it changes. Read-only for those who may not save (only admins save, spec section 6).
 */
export function DomainSettingsForm({
  settings,
  isReadOnly,
}: {
  settings: DomainSettings;
  isReadOnly: boolean;
}) {
  const { t } = useTranslation();
  const save = useSaveDomainSettings();
  const form = useForm<SettingsFormValues>({ defaultValues: toSettingsForm(settings), mode: "onTouched" });
  const zone = form.watch("time_zone");
  const zones = useMemo(() => timeZoneChoices(zone), [zone]);

  const thresholdRule = (name: ThresholdField) => ({
    validate: (_: string, values: SettingsFormValues) => {
      const error = thresholdError(values, name);
      return error === null ? true : formError(error);
    },
    // The status listed after this one is compared with it: judge that one again.
    deps: THRESHOLD_FIELDS.slice(THRESHOLD_FIELDS.indexOf(name) + 1),
  });
  const copiesRule = {
    validate: (value: string) => {
      const error = copiesError(value);
      return error === null ? true : formError(error);
    },
  };

  const remoteAccessRule = (name: (typeof REMOTE_ACCESS_FIELDS)[number]) => ({
    validate: (value: string) => {
      const error = remoteAccessError(name, value);
      return error === null ? true : formError(error);
    },
  });

  // Both ends of the rollouts' window, or neither; never equal (a window that never opens).
  const windowRule = (name: "window_start" | "window_end") => ({
    validate: (_: string, values: SettingsFormValues) => {
      const window = rolloutWindowOf(values);
      return window === "partial" || window === "empty" ? t(`settings.rollouts.${window}`) : true;
    },
    // The other end is judged again when this one changes.
    deps: [name === "window_start" ? ("window_end" as const) : ("window_start" as const)],
  });

  const handleSubmit = form.handleSubmit((values) =>
    save.mutate(toSettingsBody(values), {
      onSuccess: (answer) => form.reset(toSettingsForm(answer.settings)),
    }),
  );

  return (
    <Card data-testid="domain-settings">
      <CardContent>
        <Stack component="form" noValidate onSubmit={handleSubmit} spacing={2}>
          <Typography variant="h6" component="h2">
            {t("settings.thresholds.title")}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t("settings.thresholds.hint")}
          </Typography>
          <Grid container spacing={2}>
            {THRESHOLD_FIELDS.map((name) => (
              <FormTextField
                key={name}
                form={form}
                name={name}
                label={t(`settings.thresholds.${name}`)}
                helperText={t(`settings.thresholds.${name}Hint`)}
                disabled={isReadOnly}
                cellSize={THRESHOLD_CELL}
                slotProps={{ htmlInput: { inputMode: "numeric", "data-testid": `settings-${name}` } }}
                rules={thresholdRule(name)}
              />
            ))}
          </Grid>
          <Typography variant="h6" component="h2">
            {t("settings.copies.title")}
          </Typography>
          <Grid container spacing={2}>
            {(["backup", "journal"] as const).map((name) => (
              <FormTextField
                key={name}
                form={form}
                name={name}
                label={t(`settings.copies.${name}`)}
                helperText={t("settings.copies.hint")}
                disabled={isReadOnly}
                cellSize={CELL}
                slotProps={{ htmlInput: { inputMode: "numeric", "data-testid": `settings-${name}` } }}
                rules={copiesRule}
              />
            ))}
          </Grid>
          <Typography variant="h6" component="h2">
            {t("settings.timeZone.title")}
          </Typography>
          <Grid container spacing={2}>
            <Grid size={CELL}>
              <Controller
                control={form.control}
                name="time_zone"
                rules={{ validate: check(validateTimeZone) }}
                render={({ field, fieldState }) => (
                  <Autocomplete
                    options={zones}
                    value={field.value}
                    disableClearable
                    disabled={isReadOnly}
                    onChange={(_event, value) => field.onChange(value)}
                    onBlur={field.onBlur}
                    renderInput={(params) => (
                      <TextField
                        {...params}
                        name={field.name}
                        label={t("settings.timeZone.label")}
                        error={Boolean(fieldState.error)}
                        helperText={fieldState.error?.message ?? t("settings.timeZone.hint")}
                        slotProps={{
                          ...params.slotProps,
                          htmlInput: { ...params.slotProps.htmlInput, "data-testid": "settings-time_zone" },
                        }}
                      />
                    )}
                  />
                )}
              />
            </Grid>
          </Grid>
          <Typography variant="h6" component="h2">
            {t("settings.rollouts.title")}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t("settings.rollouts.hint")}
          </Typography>
          <FormToggle
            control={form.control}
            name="auto_accept"
            label={t("settings.rollouts.autoAccept")}
            disabled={isReadOnly}
          />
          <Grid container spacing={2}>
            {(["window_start", "window_end"] as const).map((name) => (
              <FormTextField
                key={name}
                form={form}
                name={name}
                type="time"
                label={t(`settings.rollouts.${name}`)}
                helperText={t("settings.rollouts.windowHint")}
                disabled={isReadOnly}
                cellSize={CELL}
                slotProps={{ inputLabel: { shrink: true }, htmlInput: { "data-testid": `settings-${name}` } }}
                rules={windowRule(name)}
              />
            ))}
          </Grid>
          <Typography variant="h6" component="h2">
            {t("settings.remoteAccess.title")}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t("settings.remoteAccess.hint")}
          </Typography>
          <Grid container spacing={2}>
            {REMOTE_ACCESS_FIELDS.map((name) => (
              <FormTextField
                key={name}
                form={form}
                name={name}
                label={t(`settings.remoteAccess.${name}`)}
                helperText={t(`settings.remoteAccess.${name}Hint`, REMOTE_ACCESS_LIMIT_RANGES[name])}
                disabled={isReadOnly}
                cellSize={CELL}
                slotProps={{ htmlInput: { inputMode: "numeric", "data-testid": `settings-${name}` } }}
                rules={remoteAccessRule(name)}
              />
            ))}
          </Grid>
          {isReadOnly ? null : (
            <Stack direction="row" sx={{ justifyContent: "flex-end" }}>
              <Button type="submit" variant="contained" loading={save.isPending} data-testid="settings-save">
                {t("common.save")}
              </Button>
            </Stack>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
