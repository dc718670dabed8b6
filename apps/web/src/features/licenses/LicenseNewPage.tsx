import { type FormError, validateHexKey } from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { ApiError } from "../../app/api/ApiError";
import { formError, translateErrorCode } from "../../app/messages/texts";
import { PageTitle } from "../../components/PageTitle";
import { FingerprintButton } from "./components/FingerprintButton";
import { UploadLicenseButton } from "./components/UploadLicenseButton";
import { useAddLicense } from "./licenses.queries";

function errorOrTrue(error: FormError | null): string | true {
  return error ? formError(error) : true;
}

/**
 * /license/new (root): a key of 64 hexadecimal characters. Its activation runs on the server; the
 * list shows it Pending, then its answer. Offline: the digital print and a licence file instead.
 */
export function LicenseNewPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const add = useAddLicense();
  const form = useForm<{ key: string }>({ defaultValues: { key: "" }, mode: "onTouched" });
  const { errors } = form.formState;
  const handleSubmit = form.handleSubmit((values) =>
    add.mutate(values.key.trim(), { onSuccess: () => navigate("/licenses") }),
  );
  const serverError =
    add.error instanceof ApiError
      ? translateErrorCode(add.error.code, add.error.message)
      : add.error?.message;

  return (
    <Stack spacing={3} sx={{ maxWidth: 760 }}>
      <PageTitle>{t("routes.licenseNew")}</PageTitle>
      <Card variant="outlined">
        <CardContent>
          <Stack component="form" spacing={2} onSubmit={handleSubmit} noValidate>
            <Typography variant="body2" color="text.secondary">
              {t("licenses.keyHelp")}
            </Typography>
            <TextField
              label={t("licenses.key")}
              autoComplete="off"
              autoFocus
              error={Boolean(errors.key)}
              helperText={errors.key?.message ?? " "}
              slotProps={{
                htmlInput: {
                  spellCheck: false,
                  style: { fontFamily: "monospace" },
                  "data-testid": "license-key",
                },
              }}
              {...form.register("key", { validate: (value) => errorOrTrue(validateHexKey(value.trim())) })}
            />
            {serverError ? (
              <Alert severity="error" data-testid="form-error">
                {serverError}
              </Alert>
            ) : null}
            <Stack direction="row" sx={{ gap: 2 }}>
              <Button type="submit" variant="contained" loading={add.isPending} data-testid="license-add">
                {t("licenses.add")}
              </Button>
              <Button onClick={() => navigate("/licenses")}>{t("licenses.cancel")}</Button>
            </Stack>
          </Stack>
        </CardContent>
      </Card>
      <Card variant="outlined">
        <CardContent>
          <Stack spacing={2}>
            <Typography variant="h6" component="h2">
              {t("licenses.offlineTitle")}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t("licenses.offlineHelp")}
            </Typography>
            <Stack direction="row" sx={{ gap: 1, flexWrap: "wrap" }}>
              <FingerprintButton />
              <UploadLicenseButton onDone={() => navigate("/licenses")} />
            </Stack>
          </Stack>
        </CardContent>
      </Card>
    </Stack>
  );
}
