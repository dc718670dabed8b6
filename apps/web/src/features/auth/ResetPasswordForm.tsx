import {
  checkPasswordConfirmation,
  DEFAULT_POLICY,
  validatePassword,
  validateRequired,
} from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useMutation } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { apiErrorText } from "../../app/api/handleTransportError";
import { rule } from "../../components/forms/formRules";
import { resetPassword } from "../registry/registry.api";

interface ResetForm {
  code: string;
  password: string;
  confirm: string;
}

interface ResetPasswordFormProps {
  /** The code from the e-mailed link (/login?reset=…), or "" to type it. */
  code: string;
  /** Back to signing in, with the username the reset was for. */
  onDone: (username: string | null) => void;
}

/** A new password with the e-mailed code; the server judges it by the account's policy and history. */
export function ResetPasswordForm({ code, onDone }: ResetPasswordFormProps) {
  const { t } = useTranslation();
  const form = useForm<ResetForm>({ defaultValues: { code, password: "", confirm: "" }, mode: "onTouched" });
  const reset = useMutation({
    mutationFn: (values: ResetForm) => resetPassword({ ...values, code: values.code.trim() }),
  });
  const { errors } = form.formState;

  if (reset.isSuccess) {
    return (
      <Stack spacing={2}>
        <Alert data-testid="reset-done" severity="success">
          {t("accounting.reset.done", { username: reset.data.username })}
        </Alert>
        <Button variant="contained" onClick={() => onDone(reset.data.username)}>
          {t("login.backToLogin")}
        </Button>
      </Stack>
    );
  }

  return (
    <Stack
      component="form"
      noValidate
      spacing={2.5}
      onSubmit={form.handleSubmit((values) => reset.mutate(values))}
    >
      <Typography data-testid="page-title" variant="h5" component="h1">
        {t("accounting.reset.title")}
      </Typography>
      {reset.isError ? <Alert severity="error">{apiErrorText(reset.error)}</Alert> : null}
      <TextField
        label={t("accounting.reset.code")}
        autoComplete="one-time-code"
        error={Boolean(errors.code)}
        helperText={errors.code?.message}
        {...form.register("code", { validate: rule(validateRequired) })}
      />
      <TextField
        label={t("accounting.users.newPassword")}
        type="password"
        autoComplete="new-password"
        error={Boolean(errors.password)}
        helperText={errors.password?.message}
        {...form.register("password", {
          validate: rule((value: string) => validatePassword(value, DEFAULT_POLICY, { isAdmin: false })),
          // Re-checks a confirmation already typed; an empty one is judged on its own blur, so no
          // message appears (and moves the buttons) before the person reaches it.
          onChange: () => {
            if (form.getValues("confirm")) void form.trigger("confirm");
          },
        })}
      />
      <TextField
        label={t("accounting.fields.confirmPassword")}
        type="password"
        autoComplete="new-password"
        error={Boolean(errors.confirm)}
        helperText={errors.confirm?.message}
        {...form.register("confirm", {
          validate: (value, all) => rule(() => checkPasswordConfirmation(all.password, value))(value),
        })}
      />
      <Button type="submit" variant="contained" size="large" loading={reset.isPending}>
        {t("accounting.reset.submit")}
      </Button>
      <Button onClick={() => onDone(null)}>{t("login.backToLogin")}</Button>
    </Stack>
  );
}
