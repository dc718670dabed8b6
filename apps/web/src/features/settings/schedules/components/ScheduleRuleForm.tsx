import {
  SCHEDULE_WEEKS,
  type ScheduleClass,
  type ScheduleRule,
  validateCopies,
  validateScheduleTime,
  validateText,
} from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import FormLabel from "@mui/material/FormLabel";
import Grid from "@mui/material/Grid";
import Link from "@mui/material/Link";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate } from "react-router";
import { apiErrorText } from "../../../../app/api/handleTransportError";
import { formatMoment } from "../../../../app/format";
import { pushInfoMessage } from "../../../../app/messages/messageStore";
import { formError, notice } from "../../../../app/messages/texts";
import { FormTextField, FormToggle } from "../../../../components/forms/formFields";
import { rule as check } from "../../../../components/forms/formRules";
import { TagsInput } from "../../../../components/list-card";
import { tagFrequenciesQueryOptions } from "../../../devices/devices.queries";
import { domainSettingsQueryOptions } from "../../settings.queries";
import { type ScheduleFormValues, toScheduleBody, toScheduleForm } from "../scheduleForm";
import { useSaveScheduleRule } from "../schedules.queries";
import { CheckboxChoices } from "./CheckboxChoices";
import { weekdayNames } from "./scheduleText";

/**
 * A backup or journal rule (spec section 3): name, active, daily or on some days of some weeks of
 * the month, the time (in the domain's time zone, ADR 020), all routers or those with the tags, and the copies kept.
 * Every field is checked as spec section 5 says before the save, and again by the server.
 */
export function ScheduleRuleForm({ type, rule }: { type: ScheduleClass; rule: ScheduleRule | null }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const form = useForm<ScheduleFormValues>({ defaultValues: toScheduleForm(rule), mode: "onTouched" });
  const save = useSaveScheduleRule(type, rule?._id ?? null);
  const tags = useQuery(tagFrequenciesQueryOptions());
  const basic = form.watch("basic");
  const activeFor = form.watch("active_for");
  // The zone the time is read in is the domain's, as it is now (the settings), else as the rule was read.
  const settings = useQuery(domainSettingsQueryOptions());
  const zone = settings.data?.time_zone ?? rule?.time_zone ?? null;
  const days = weekdayNames(i18n.language);

  const handleSubmit = form.handleSubmit((values) =>
    save.mutate(toScheduleBody(values), {
      onSuccess: (saved) => {
        pushInfoMessage({ level: "success", text: notice("informationUpdated") });
        if (!rule) navigate(`/${type}/task/${saved._id}`, { replace: true });
      },
    }),
  );

  return (
    <Card variant="outlined">
      <CardContent component="form" noValidate onSubmit={handleSubmit} data-testid="schedule-rule-form">
        <Stack spacing={3}>
          {save.isError ? <Alert severity="error">{apiErrorText(save.error)}</Alert> : null}
          {rule ? (
            <Typography variant="body2" color="text.secondary" data-testid="schedule-runs">
              {t("schedules.form.runs", {
                next: rule.next_run === null ? "—" : formatMoment(rule.next_run, i18n.language),
                last: rule.last_run === null ? "—" : formatMoment(rule.last_run, i18n.language),
              })}
            </Typography>
          ) : null}
          <Grid container spacing={2}>
            <FormTextField
              form={form}
              name="name"
              label={t("schedules.form.name")}
              rules={{ validate: check(validateText) }}
              slotProps={{ htmlInput: { "data-testid": "schedule-name" } }}
            />
            <FormTextField
              form={form}
              name="copies"
              label={t("schedules.form.copies")}
              helperText={t("schedules.form.copiesHint")}
              inputMode="numeric"
              rules={{ validate: check(validateCopies) }}
              slotProps={{ htmlInput: { "data-testid": "schedule-copies" } }}
            />
            <Grid size={12}>
              <Controller
                control={form.control}
                name="basic"
                render={({ field }) => (
                  <FormControl>
                    <FormLabel>{t("schedules.form.repeat")}</FormLabel>
                    <RadioGroup
                      row
                      value={field.value}
                      onChange={(event) => field.onChange(event.target.value)}
                    >
                      <FormControlLabel
                        value="daily"
                        control={<Radio />}
                        label={t("schedules.basic.daily")}
                      />
                      <FormControlLabel
                        value="weekly"
                        control={<Radio />}
                        label={t("schedules.basic.weekly")}
                      />
                    </RadioGroup>
                  </FormControl>
                )}
              />
            </Grid>
            {basic === "weekly" ? (
              <>
                <Grid size={12}>
                  <Controller
                    control={form.control}
                    name="days"
                    rules={{
                      validate: (value) =>
                        form.getValues("basic") !== "weekly" || value.length > 0 || formError("daysRequired"),
                    }}
                    render={({ field, fieldState }) => (
                      <CheckboxChoices
                        testId="schedule-days"
                        label={t("schedules.form.days")}
                        choices={days.map((name, index) => ({ value: index + 1, label: name }))}
                        value={field.value}
                        onChange={field.onChange}
                        error={fieldState.error?.message}
                      />
                    )}
                  />
                </Grid>
                <Grid size={12}>
                  <Controller
                    control={form.control}
                    name="weeks"
                    render={({ field }) => (
                      <CheckboxChoices
                        testId="schedule-weeks"
                        label={t("schedules.form.weeks")}
                        choices={SCHEDULE_WEEKS.map((week) => ({
                          value: week,
                          label: t(`schedules.weeks.${week}`),
                        }))}
                        value={field.value}
                        onChange={field.onChange}
                        helperText={t("schedules.form.weeksHint")}
                      />
                    )}
                  />
                </Grid>
              </>
            ) : null}
            <FormTextField
              form={form}
              name="time"
              label={t("schedules.form.time")}
              helperText={t("schedules.form.timeHint")}
              placeholder="03:00"
              rules={{ validate: check(validateScheduleTime) }}
              slotProps={{ htmlInput: { "data-testid": "schedule-time" } }}
            />
            <Grid size={{ xs: 12, md: 6 }} sx={{ display: "flex", alignItems: "center" }}>
              <Typography variant="body2" color="text.secondary" data-testid="schedule-time-zone">
                {zone === null
                  ? t("schedules.form.domainTimeZoneUnknown")
                  : t("schedules.form.domainTimeZone", { zone })}{" "}
                <Link component={RouterLink} to="/settings">
                  {t("schedules.form.domainTimeZoneLink")}
                </Link>
              </Typography>
            </Grid>
            <Grid size={12}>
              <Controller
                control={form.control}
                name="active_for"
                render={({ field }) => (
                  <FormControl>
                    <FormLabel>{t("schedules.form.activeFor")}</FormLabel>
                    <RadioGroup
                      row
                      value={field.value}
                      onChange={(event) => field.onChange(event.target.value)}
                    >
                      <FormControlLabel
                        value="all"
                        control={<Radio />}
                        label={t("schedules.activeFor.all")}
                      />
                      <FormControlLabel
                        value="group"
                        control={<Radio />}
                        label={t("schedules.activeFor.group")}
                      />
                    </RadioGroup>
                  </FormControl>
                )}
              />
            </Grid>
            {activeFor === "group" ? (
              <Grid size={{ xs: 12, md: 6 }}>
                <Controller
                  control={form.control}
                  name="tags"
                  rules={{
                    validate: (value) =>
                      form.getValues("active_for") !== "group" ||
                      value.length > 0 ||
                      formError("tagsRequired"),
                  }}
                  render={({ field, fieldState }) => (
                    <Stack data-testid="schedule-tags">
                      <TagsInput
                        value={field.value}
                        onChange={field.onChange}
                        frequencies={tags.data}
                        label={t("schedules.form.tags")}
                        size="medium"
                        isFullWidth
                      />
                      {fieldState.error ? (
                        <FormHelperText error>{fieldState.error.message}</FormHelperText>
                      ) : null}
                    </Stack>
                  )}
                />
              </Grid>
            ) : null}
            <Grid size={12}>
              <FormToggle control={form.control} name="active" label={t("schedules.form.active")} />
            </Grid>
          </Grid>
          <Stack direction="row" spacing={1} sx={{ justifyContent: "flex-end" }}>
            <Button onClick={() => navigate("/settings")}>{t("common.cancel")}</Button>
            <Button type="submit" variant="contained" loading={save.isPending} data-testid="schedule-save">
              {t("common.save")}
            </Button>
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  );
}
