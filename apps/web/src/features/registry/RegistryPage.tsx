import {
  validateConsent,
  validateEmail,
  validatePhone,
  validateRequired,
  validateText,
  validateTin,
} from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useMutation } from "@tanstack/react-query";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { rule } from "../../components/forms/formRules";
import { PageTitle } from "../../components/PageTitle";
import { mailErrorText } from "./mailErrorText";
import { type RegistrationForm, register, sendRegistrationCode } from "./registry.api";

const EMPTY: RegistrationForm = {
  company_name: "",
  tin: "",
  full_name: "",
  email: "",
  phone: "",
  consent: false,
  key: "",
};

/**
 * /registry: a company signs up. The corporate e-mail gets a key ('Send key'); with the key and the
 * consent to the personal-data terms, submitting creates the domain and its admin, whose password
 * arrives by e-mail too.
 */
export function RegistryPage() {
  const { t } = useTranslation();
  const form = useForm<RegistrationForm>({ defaultValues: EMPTY, mode: "onTouched" });
  const sendCode = useMutation({ mutationFn: (email: string) => sendRegistrationCode(email) });
  const submit = useMutation({ mutationFn: (values: RegistrationForm) => register(values) });
  const { errors } = form.formState;

  const handleSendCode = async () => {
    // The key is mailed to a person's address: not before the consent to the personal-data terms.
    if (await form.trigger(["email", "consent"])) sendCode.mutate(form.getValues("email").trim());
  };
  const handleSubmit = form.handleSubmit((values) => submit.mutate(values));

  if (submit.isSuccess) {
    return (
      <Stack sx={{ maxWidth: 560, mx: "auto", mt: { xs: 1, sm: 4 } }}>
        <PageTitle>{t("routes.registry")}</PageTitle>
        <Alert data-testid="registry-done" severity="success" sx={{ mb: 2 }}>
          {t("accounting.registry.done")}
        </Alert>
        <Button variant="contained" component={RouterLink} to="/login" sx={{ alignSelf: "flex-start" }}>
          {t("login.backToLogin")}
        </Button>
      </Stack>
    );
  }

  return (
    <Stack sx={{ maxWidth: 560, mx: "auto", mt: { xs: 1, sm: 4 } }}>
      <PageTitle>{t("routes.registry")}</PageTitle>
      <Card variant="outlined">
        <CardContent component="form" noValidate onSubmit={handleSubmit}>
          <Stack spacing={2.5}>
            <Typography color="text.secondary">{t("accounting.registry.intro")}</Typography>
            {submit.isError ? <Alert severity="error">{mailErrorText(submit.error)}</Alert> : null}
            <TextField
              label={t("accounting.registry.companyName")}
              required
              autoComplete="organization"
              error={Boolean(errors.company_name)}
              helperText={errors.company_name?.message}
              {...form.register("company_name", { validate: rule(validateText) })}
            />
            <TextField
              label={t("accounting.fields.tin")}
              required
              inputMode="numeric"
              error={Boolean(errors.tin)}
              helperText={errors.tin?.message}
              {...form.register("tin", { validate: rule(validateTin) })}
            />
            <TextField
              label={t("accounting.fields.fullName")}
              required
              autoComplete="name"
              error={Boolean(errors.full_name)}
              helperText={errors.full_name?.message}
              {...form.register("full_name", { validate: rule(validateText) })}
            />
            <TextField
              label={t("accounting.registry.corporateEmail")}
              required
              type="email"
              autoComplete="email"
              error={Boolean(errors.email)}
              helperText={errors.email?.message}
              {...form.register("email", { validate: rule(validateEmail) })}
            />
            <TextField
              label={t("accounting.fields.phone")}
              type="tel"
              autoComplete="tel"
              error={Boolean(errors.phone)}
              helperText={errors.phone?.message}
              {...form.register("phone", { validate: rule(validatePhone) })}
            />
            <Controller
              control={form.control}
              name="consent"
              rules={{ validate: rule(validateConsent) }}
              render={({ field, fieldState }) => (
                <Stack>
                  <FormControlLabel
                    control={
                      <Checkbox
                        checked={field.value}
                        onChange={(event) => field.onChange(event.target.checked)}
                        onBlur={field.onBlur}
                      />
                    }
                    label={t("accounting.registry.consent")}
                  />
                  {fieldState.error ? (
                    <FormHelperText error>{fieldState.error.message}</FormHelperText>
                  ) : null}
                </Stack>
              )}
            />
            <Stack
              direction={{ xs: "column", sm: "row" }}
              spacing={2}
              sx={{ alignItems: { sm: "flex-start" } }}
            >
              <Button
                variant="outlined"
                onClick={handleSendCode}
                loading={sendCode.isPending}
                sx={{ mt: { sm: 1 }, whiteSpace: "nowrap", flexShrink: 0 }}
              >
                {t("accounting.registry.sendKey")}
              </Button>
              <TextField
                label={t("accounting.registry.key")}
                autoComplete="one-time-code"
                sx={{ flexGrow: 1 }}
                error={Boolean(errors.key)}
                helperText={errors.key?.message ?? t("accounting.registry.keyHint")}
                {...form.register("key", { validate: rule(validateRequired) })}
              />
            </Stack>
            {sendCode.isSuccess ? (
              <Alert data-testid="registry-key-sent" severity="info">
                {t("accounting.registry.keySent")}
              </Alert>
            ) : null}
            {sendCode.isError ? <Alert severity="error">{mailErrorText(sendCode.error)}</Alert> : null}
            <Button type="submit" variant="contained" size="large" loading={submit.isPending}>
              {t("accounting.registry.submit")}
            </Button>
            <Link component={RouterLink} to="/login" variant="body2">
              {t("login.backToLogin")}
            </Link>
          </Stack>
        </CardContent>
      </Card>
    </Stack>
  );
}
