import { type PolicyDetail, SECOND_FACTOR_REQUIRED_FOR } from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Divider from "@mui/material/Divider";
import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { apiErrorText } from "../../../app/api/handleTransportError";
import { pushInfoMessage } from "../../../app/messages/messageStore";
import { formError, notice } from "../../../app/messages/texts";
import { FormTextField, FormToggle, HALF_ROW } from "../../../components/forms/formFields";
import { DictionaryField, parseDictionaryFile } from "./DictionaryField";
import { useSavePolicy, useUploadDictionary } from "./policies.queries";
import {
  fromPolicyForm,
  isWholeInRange,
  POLICY_NUMBER_FIELDS,
  type PolicyFormValues,
  type PolicyNumberField,
  toPolicyForm,
} from "./policyForm";

const GROUPS: { title: string; fields: PolicyNumberField[] }[] = [
  {
    title: "passwords",
    fields: [
      "password_min_length",
      "password_max_length",
      "admin_min_length",
      "max_repeated_symbols",
      "repeated_combination_length",
      "repeated_combination_count",
      "password_history",
    ],
  },
  { title: "expiry", fields: ["expiration_days", "admin_expiration_days"] },
  {
    title: "blocking",
    fields: [
      "attempts_before_temporary_block",
      "attempts_before_permanent_block",
      "temporary_block_minutes",
      "inactivity_minutes",
      "block_without_auth_days",
    ],
  },
  { title: "secondFactor", fields: ["second_factor_remember_days"] },
];

/** The grid cell of a number field: three to a row from md up. */
const THIRD_ROW = { xs: 12, sm: 6, md: 4 };

const BOUNDS: Partial<Record<PolicyNumberField, { min: number; max: number }>> = Object.fromEntries(
  POLICY_NUMBER_FIELDS.map((field) => [field.name, field]),
);

/** Every field of a security policy (spec section 3) with the contract's bounds checked while typing. */
export function PolicyForm({ policy, isReadOnly }: { policy: PolicyDetail | null; isReadOnly: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useForm<PolicyFormValues>({ defaultValues: toPolicyForm(policy), mode: "onTouched" });
  const save = useSavePolicy(policy?._id ?? "new");
  const upload = useUploadDictionary(policy?._id ?? "new");

  const handleSubmit = form.handleSubmit((values) => {
    const body = fromPolicyForm(values);
    save.mutate(policy ? body : { ...body, domain_id: null }, {
      onSuccess: (saved) => {
        pushInfoMessage({ level: "success", text: notice("informationUpdated") });
        if (!policy) navigate(`/policy/${saved._id}`, { replace: true });
      },
    });
  });

  const numberRule = (name: PolicyNumberField) => ({
    validate: (value: string, all: PolicyFormValues) => {
      const { min, max } = BOUNDS[name] ?? { min: 0, max: 0 };
      if (!isWholeInRange(value, min, max)) return t("accounting.policies.range", { min, max });
      if (
        (name === "password_min_length" || name === "admin_min_length") &&
        isWholeInRange(all.password_max_length, 1, 255) &&
        Number(value) > Number(all.password_max_length)
      ) {
        return t("accounting.policies.minAboveMax");
      }
      return true;
    },
    deps:
      name === "password_max_length"
        ? (["password_min_length", "admin_min_length"] as PolicyNumberField[])
        : undefined,
  });

  const handleUpload = (kind: "sequences" | "phrases") => async (file: File) => {
    const field = kind === "sequences" ? "forbidden_sequences" : "forbidden_phrases";
    if (!policy) {
      const entries = await parseDictionaryFile(file);
      form.setValue(field, entries, { shouldDirty: true });
      return entries;
    }
    const saved = await upload.mutateAsync({ kind, file });
    form.setValue(field, saved[field]);
    pushInfoMessage({ level: "success", text: notice("fileUploadSuccess") });
    return saved[field];
  };

  return (
    <Card variant="outlined">
      <CardContent component="form" noValidate onSubmit={handleSubmit}>
        <fieldset disabled={isReadOnly} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
          <Stack spacing={3}>
            {isReadOnly ? <Alert severity="info">{t("accounting.readOnly")}</Alert> : null}
            {save.isError ? <Alert severity="error">{apiErrorText(save.error)}</Alert> : null}
            <Grid container spacing={2}>
              <FormTextField
                form={form}
                name="name"
                label={t("accounting.fields.name")}
                rules={{ validate: (value) => value.trim().length > 0 || formError("required") }}
              />
              <Grid size={HALF_ROW}>
                <Controller
                  control={form.control}
                  name="policy_level"
                  render={({ field }) => (
                    <TextField
                      select
                      fullWidth
                      label={t("accounting.policies.level")}
                      value={field.value}
                      onChange={(event) => field.onChange(Number(event.target.value))}
                    >
                      {[0, 1, 2].map((level) => (
                        <MenuItem key={level} value={level}>
                          {t(`accounting.policies.levels.${level}`)}
                        </MenuItem>
                      ))}
                    </TextField>
                  )}
                />
              </Grid>
            </Grid>
            {GROUPS.map((group) => (
              <Stack key={group.title} spacing={2}>
                <Divider textAlign="left">
                  <Typography variant="overline">{t(`accounting.policies.groups.${group.title}`)}</Typography>
                </Divider>
                <Grid container spacing={2}>
                  {group.fields.map((name) => (
                    <FormTextField
                      key={name}
                      form={form}
                      name={name}
                      cellSize={THIRD_ROW}
                      inputMode="numeric"
                      label={t(`accounting.policies.fields.${name}`)}
                      // What 0 means sits under the field, so the label is short enough to be read whole.
                      helperText={
                        t(`accounting.policies.fieldHints.${name}`, { defaultValue: "" }) || undefined
                      }
                      rules={numberRule(name)}
                    />
                  ))}
                  {group.title === "expiry" ? (
                    <Grid size={THIRD_ROW}>
                      <Controller
                        control={form.control}
                        name="expiration_strategy"
                        render={({ field }) => (
                          <TextField
                            select
                            fullWidth
                            label={t("accounting.policies.fields.expiration_strategy")}
                            value={field.value}
                            onChange={(event) => field.onChange(event.target.value)}
                          >
                            <MenuItem value="block">{t("accounting.policies.strategy.block")}</MenuItem>
                            <MenuItem value="send_new_password">
                              {t("accounting.policies.strategy.send_new_password")}
                            </MenuItem>
                          </TextField>
                        )}
                      />
                    </Grid>
                  ) : null}
                  {group.title === "secondFactor" ? (
                    <Grid size={THIRD_ROW}>
                      <Controller
                        control={form.control}
                        name="second_factor_required_for"
                        render={({ field }) => (
                          <TextField
                            select
                            fullWidth
                            label={t("accounting.policies.fields.second_factor_required_for")}
                            value={field.value}
                            onChange={(event) => field.onChange(event.target.value)}
                          >
                            {SECOND_FACTOR_REQUIRED_FOR.map((value) => (
                              <MenuItem key={value} value={value}>
                                {t(`accounting.policies.secondFactorFor.${value}`)}
                              </MenuItem>
                            ))}
                          </TextField>
                        )}
                      />
                    </Grid>
                  ) : null}
                </Grid>
              </Stack>
            ))}
            <FormToggle
              control={form.control}
              name="reauthentication"
              label={t("accounting.policies.fields.reauthentication")}
            />
            <Divider textAlign="left">
              <Typography variant="overline">{t("accounting.policies.groups.dictionaries")}</Typography>
            </Divider>
            <DictionaryField
              kind="sequences"
              label={t("accounting.policies.sequences")}
              entries={form.watch("forbidden_sequences")}
              isReadOnly={isReadOnly}
              onUpload={handleUpload("sequences")}
              onClear={() => form.setValue("forbidden_sequences", [], { shouldDirty: true })}
            />
            <DictionaryField
              kind="phrases"
              label={t("accounting.policies.phrases")}
              entries={form.watch("forbidden_phrases")}
              isReadOnly={isReadOnly}
              onUpload={handleUpload("phrases")}
              onClear={() => form.setValue("forbidden_phrases", [], { shouldDirty: true })}
            />
            {isReadOnly ? null : (
              <Stack direction="row" sx={{ justifyContent: "flex-end" }}>
                <Button type="submit" variant="contained" loading={save.isPending}>
                  {t("common.save")}
                </Button>
              </Stack>
            )}
          </Stack>
        </fieldset>
      </CardContent>
    </Card>
  );
}
