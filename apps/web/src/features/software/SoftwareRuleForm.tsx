import {
  FIRMWARE_MAX_MODELS,
  FIRMWARE_MODEL_MAX_LENGTH,
  firmwareSeriesFromUrl,
  type SoftwareRule,
} from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Autocomplete from "@mui/material/Autocomplete";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import Grid from "@mui/material/Grid";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { apiErrorText } from "../../app/api/handleTransportError";
import { pushInfoMessage } from "../../app/messages/messageStore";
import { notice } from "../../app/messages/texts";
import { FormTextField } from "../../components/forms/formFields";
import { useSaveSoftwareRule } from "./software.queries";

interface RuleFormValues {
  name: string;
  url: string;
  models: string[];
}

function isFetchableUrl(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** Name, URL and models of a software rule; the series the URL gives is shown under it. */
export function SoftwareRuleForm({ rule }: { rule: SoftwareRule | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useForm<RuleFormValues>({
    defaultValues: { name: rule?.name ?? "", url: rule?.url ?? "", models: rule?.models ?? [] },
    mode: "onTouched",
  });
  const save = useSaveSoftwareRule(rule?._id ?? null);
  const series = firmwareSeriesFromUrl(form.watch("url"));

  const handleSubmit = form.handleSubmit((values) =>
    save.mutate(
      { name: values.name.trim(), url: values.url.trim(), models: values.models },
      {
        onSuccess: (saved) => {
          pushInfoMessage({ level: "success", text: notice("informationUpdated") });
          if (!rule) navigate(`/software/${saved._id}`, { replace: true });
        },
      },
    ),
  );

  return (
    <Card variant="outlined">
      <CardContent component="form" noValidate onSubmit={handleSubmit}>
        <Stack spacing={3}>
          {save.isError ? <Alert severity="error">{apiErrorText(save.error)}</Alert> : null}
          <Grid container spacing={2}>
            <FormTextField
              form={form}
              name="name"
              label={t("software.fields.name")}
              rules={{ validate: (value) => value.trim() !== "" || t("software.form.required") }}
            />
            <FormTextField
              form={form}
              name="url"
              label={t("software.fields.url")}
              helperText={t("software.form.series", { series: series ?? t("software.noSeries") })}
              rules={{ validate: (value) => isFetchableUrl(value) || t("software.form.badUrl") }}
            />
            <Grid size={12}>
              <Controller
                control={form.control}
                name="models"
                rules={{ validate: (value) => value.length > 0 || t("software.form.noModels") }}
                render={({ field, fieldState }) => (
                  <Autocomplete
                    multiple
                    freeSolo
                    autoSelect
                    options={[]}
                    value={field.value}
                    onChange={(_event, value) =>
                      field.onChange(
                        [...new Set(value.map((model) => model.trim().slice(0, FIRMWARE_MODEL_MAX_LENGTH)))]
                          .filter(Boolean)
                          .slice(0, FIRMWARE_MAX_MODELS),
                      )
                    }
                    onBlur={field.onBlur}
                    renderValue={(values, getItemProps) =>
                      values.map((model, index) => {
                        const { key, ...itemProps } = getItemProps({ index });
                        return <Chip key={key} size="small" label={model} {...itemProps} />;
                      })
                    }
                    renderInput={(params) => (
                      <TextField
                        {...params}
                        label={t("software.fields.models")}
                        error={Boolean(fieldState.error)}
                        helperText={fieldState.error?.message ?? t("software.form.modelsHint")}
                      />
                    )}
                  />
                )}
              />
            </Grid>
          </Grid>
          <Stack direction="row" sx={{ justifyContent: "flex-end" }}>
            <Button type="submit" variant="contained" loading={save.isPending}>
              {rule ? t("common.save") : t("software.form.create")}
            </Button>
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  );
}
