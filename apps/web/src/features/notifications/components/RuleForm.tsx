import {
  EVENT_LEVELS,
  hasNoDomain,
  MONITOR_LABELS,
  MONITORS,
  type MonitorName,
  monitorsFor,
  monitorVariableChoices,
  type Rule,
  resolveLocale,
  TOLERANCE_MINUTES_MAX,
  validateCheckDelay,
  validateMonitorVariable,
  validateText,
} from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormGroup from "@mui/material/FormGroup";
import FormLabel from "@mui/material/FormLabel";
import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useRef, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { apiErrorText } from "../../../app/api/handleTransportError";
import { pushInfoMessage } from "../../../app/messages/messageStore";
import { notice } from "../../../app/messages/texts";
import { useOffers } from "../../../app/session/useOffers";
import { useSession } from "../../../app/session/useSession";
import { DeleteButton } from "../../../components/DeleteButton";
import { FormTextField, FormToggle } from "../../../components/forms/formFields";
import { rule as check } from "../../../components/forms/formRules";
import { TagsInput } from "../../../components/list-card";
import { tagFrequenciesQueryOptions } from "../../devices/devices.queries";
import { type RuleFormValues, toRuleBody, toRuleForm, withMonitor } from "../ruleForm";
import { useDeleteRule, useSaveRule } from "../rules.queries";
import { transportListQueryOptions } from "../transports.queries";

function toleranceRule(value: string): "required" | "countRange" | null {
  const text = value.trim();
  if (text === "") return "required";
  return /^\d+$/.test(text) && Number(text) <= TOLERANCE_MINUTES_MAX ? null : "countRange";
}

/**
 * A notification rule (spec section 3): its monitor with check_delay (timers) and variables (a
 * select where the pattern is `a|b`), the provider, filters by tags and event levels, and the
 * tolerance. Saved as a rule, or as a draft to finish later; read-only for those who may not edit.
 */
export function RuleForm({ rule }: { rule: Rule | null }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const offers = useOffers();
  const user = useSession();
  const isSuperuser = user ? hasNoDomain(user.role) : false;
  const canEdit = offers("notifications.edit");
  const form = useForm<RuleFormValues>({ defaultValues: toRuleForm(rule), mode: "onTouched" });
  // Which button submitted: a draft may lack a provider or a check_delay.
  const draftRef = useRef(false);
  const [isDraftSave, setDraftSave] = useState(false);
  const save = useSaveRule(rule?._id ?? null);
  const remove = useDeleteRule();
  const transports = useQuery(transportListQueryOptions());
  const monitor = form.watch("monitor");
  const definition = MONITORS[monitor];
  const watchesDevices = definition.subject === "device";
  const tags = useQuery({ ...tagFrequenciesQueryOptions(), enabled: watchesDevices && !isSuperuser });
  const labels = MONITOR_LABELS[resolveLocale(i18n.language)];

  const submit = (isDraft: boolean) => (event?: FormEvent) => {
    draftRef.current = isDraft;
    setDraftSave(isDraft);
    return form.handleSubmit((values) =>
      save.mutate(toRuleBody(values, isDraft), {
        onSuccess: (saved) => {
          pushInfoMessage({ level: "success", text: notice("informationUpdated") });
          if (!rule || rule._id !== saved._id)
            navigate(`/notifications/rule/${saved._id}`, { replace: true });
        },
      }),
    )(event);
  };

  const handleMonitorChange = (next: MonitorName) =>
    form.reset(withMonitor(form.getValues(), next), { keepDirty: true });

  return (
    <Card variant="outlined">
      <CardContent component="form" noValidate onSubmit={submit(false)}>
        <Stack spacing={3}>
          {save.isError ? <Alert severity="error">{apiErrorText(save.error)}</Alert> : null}
          {definition.hook ? (
            <Alert severity="info">{t(`notifications.rule.hook.${definition.hook}`)}</Alert>
          ) : null}
          <Grid container spacing={2}>
            <FormTextField
              form={form}
              name="name"
              label={t("notifications.rule.name")}
              disabled={!canEdit}
              rules={{ validate: check(validateText) }}
            />
            <Grid size={{ xs: 12, md: 6 }}>
              <Controller
                control={form.control}
                name="monitor"
                render={({ field }) => (
                  <TextField
                    select
                    fullWidth
                    label={t("notifications.rule.monitor")}
                    value={field.value}
                    disabled={!canEdit}
                    onChange={(event) => handleMonitorChange(event.target.value as MonitorName)}
                    slotProps={{ htmlInput: { "data-testid": "rule-monitor" } }}
                  >
                    {monitorsFor(isSuperuser).map((candidate) => (
                      <MenuItem key={candidate.name} value={candidate.name}>
                        {labels[candidate.name]}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
            </Grid>
            {definition.checkDelay ? (
              <FormTextField
                form={form}
                name="check_delay"
                label={t(`notifications.rule.checkDelay.${definition.checkDelay.unit}`)}
                helperText={t(`notifications.rule.checkDelayHint.${monitor}`)}
                disabled={!canEdit}
                inputMode="numeric"
                rules={{
                  validate: (value) =>
                    (draftRef.current && value.trim() === "") || check(validateCheckDelay)(value),
                }}
              />
            ) : null}
            {definition.variables.map((variable) => {
              const choices = monitorVariableChoices(variable);
              const name = `variables.${variable.name}` as const;
              return (
                <Grid key={`${monitor}-${variable.name}`} size={{ xs: 12, md: 6 }}>
                  <Controller
                    control={form.control}
                    name={name}
                    rules={{
                      validate: check((value: string) =>
                        validateMonitorVariable(value ?? "", variable.pattern),
                      ),
                    }}
                    render={({ field, fieldState }) => (
                      <TextField
                        select={choices !== null}
                        fullWidth
                        label={t(`notifications.rule.variables.${variable.name}`)}
                        value={field.value ?? ""}
                        onChange={field.onChange}
                        onBlur={field.onBlur}
                        disabled={!canEdit}
                        error={Boolean(fieldState.error)}
                        helperText={fieldState.error?.message}
                        slotProps={{ htmlInput: { "data-testid": `rule-variable-${variable.name}` } }}
                      >
                        {(choices ?? []).map((choice) => (
                          <MenuItem key={choice} value={choice}>
                            {t(`notifications.rule.choices.${choice}`, { defaultValue: choice })}
                          </MenuItem>
                        ))}
                      </TextField>
                    )}
                  />
                </Grid>
              );
            })}
            <Grid size={{ xs: 12, md: 6 }}>
              <Controller
                control={form.control}
                name="transport_id"
                rules={{
                  validate: (value) =>
                    draftRef.current || value !== "" || t("notifications.rule.transportRequired"),
                }}
                render={({ field, fieldState }) => (
                  <TextField
                    select
                    fullWidth
                    label={t("notifications.rule.transport")}
                    value={field.value}
                    onChange={field.onChange}
                    disabled={!canEdit}
                    error={Boolean(fieldState.error)}
                    helperText={
                      fieldState.error?.message ??
                      (transports.data?.length === 0 ? t("notifications.rule.noTransports") : undefined)
                    }
                    slotProps={{ htmlInput: { "data-testid": "rule-transport" } }}
                  >
                    {(transports.data ?? []).map((transport) => (
                      <MenuItem key={transport._id} value={transport._id}>
                        {`${transport.name} (${t(`notifications.types.${transport.type}`)})`}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
            </Grid>
            {definition.style === "digest" ? null : (
              <FormTextField
                form={form}
                name="tolerance"
                label={t(`notifications.rule.tolerance.${definition.style}`)}
                helperText={t(`notifications.rule.toleranceHint.${definition.style}`)}
                disabled={!canEdit}
                inputMode="numeric"
                rules={{ validate: check(toleranceRule) }}
              />
            )}
            {watchesDevices ? (
              <Grid size={{ xs: 12, md: 6 }}>
                <Controller
                  control={form.control}
                  name="filter_tags"
                  render={({ field }) => (
                    <TagsInput
                      value={field.value}
                      onChange={field.onChange}
                      frequencies={tags.data}
                      label={t("notifications.rule.tags")}
                      size="medium"
                      isFullWidth
                      isDisabled={!canEdit}
                    />
                  )}
                />
              </Grid>
            ) : null}
            {monitor === "device_event" ? (
              <Grid size={{ xs: 12, md: 6 }}>
                <FormLabel component="legend">{t("notifications.rule.levels")}</FormLabel>
                <Controller
                  control={form.control}
                  name="filter_levels"
                  render={({ field }) => (
                    <FormGroup row>
                      {EVENT_LEVELS.map((level) => (
                        <FormControlLabel
                          key={level}
                          label={t(`notifications.rule.levelNames.${level}`)}
                          control={
                            <Checkbox
                              checked={field.value.includes(level)}
                              disabled={!canEdit}
                              onChange={(event) =>
                                field.onChange(
                                  event.target.checked
                                    ? [...field.value, level]
                                    : field.value.filter((entry) => entry !== level),
                                )
                              }
                            />
                          }
                        />
                      ))}
                    </FormGroup>
                  )}
                />
              </Grid>
            ) : null}
            <Grid size={12}>
              <FormToggle
                control={form.control}
                name="active"
                label={t("notifications.rule.active")}
                disabled={!canEdit}
              />
            </Grid>
          </Grid>
          {canEdit ? (
            <Stack
              direction="row"
              spacing={1}
              sx={{ justifyContent: "flex-end", flexWrap: "wrap", rowGap: 1 }}
            >
              {rule ? (
                <DeleteButton
                  hasText
                  onDelete={() =>
                    remove.mutate(rule._id, {
                      onSuccess: () => navigate("/notifications", { replace: true }),
                    })
                  }
                />
              ) : null}
              {!rule || rule.draft ? (
                <Button variant="outlined" loading={save.isPending && isDraftSave} onClick={submit(true)}>
                  {t("notifications.rule.saveDraft")}
                </Button>
              ) : null}
              <Button type="submit" variant="contained" loading={save.isPending && !isDraftSave}>
                {t("common.save")}
              </Button>
            </Stack>
          ) : null}
        </Stack>
      </CardContent>
    </Card>
  );
}
