import Visibility from "@mui/icons-material/Visibility";
import VisibilityOff from "@mui/icons-material/VisibilityOff";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Divider from "@mui/material/Divider";
import IconButton from "@mui/material/IconButton";
import InputAdornment from "@mui/material/InputAdornment";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useSearchParams } from "react-router";
import { isApiError } from "../../app/api/ApiError";
import { apiErrorText } from "../../app/api/handleTransportError";
import { loadConsoleTexts } from "../../app/i18n";
import { formError, notice } from "../../app/messages/texts";
import { signIn } from "../../app/session/session.api";
import { LoginField } from "./LoginField";

// Fetched on the first "Forgot password?" click, then kept mounted so it closes with its animation:
// /login's start-up bundle carries no dialog (ADR 018). Both forms speak console texts.
const ResetPasswordDialog = lazy(async () => {
  const [module] = await Promise.all([import("./ResetPasswordDialog"), loadConsoleTexts()]);
  return { default: module.ResetPasswordDialog };
});
// Only the e-mailed link (`?reset=`) shows it.
const ResetPasswordForm = lazy(async () => {
  const [module] = await Promise.all([import("./ResetPasswordForm"), loadConsoleTexts()]);
  return { default: module.ResetPasswordForm };
});

interface LoginForm {
  username: string;
  password: string;
}
type LoginErrors = Partial<Record<keyof LoginForm, string>>;

/** Both fields are required (blank counts as empty). */
function validateLogin(values: LoginForm): LoginErrors {
  const errors: LoginErrors = {};
  if (values.username.trim().length === 0) errors.username = formError("required");
  if (values.password.trim().length === 0) errors.password = formError("required");
  return errors;
}

/**
 * The login messages of spec section 8: an expired password, or a new one sent by e-mail (the
 * policy's expiry strategy), read as notices rather than errors.
 */
function LoginError({ error }: { error: unknown }) {
  const code = isApiError(error) ? error.code : null;
  if (code === "PASSWORD_RESET") return <Alert severity="info">{notice("newPasswordSent")}</Alert>;
  if (code === "PASSWORD_EXPIRED") return <Alert severity="warning">{notice("passwordExpired")}</Alert>;
  return <Alert severity="error">{apiErrorText(error)}</Alert>;
}

/**
 * /login: username and password; on success the route guard opens the user's default page. With
 * `?reset=<code>` (the e-mailed link) it shows the form that sets a new password instead.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const resetCode = params.get("reset");
  const [isPasswordShown, setPasswordShown] = useState(false);
  const [isResetOpen, setResetOpen] = useState(false);
  const [hasResetOpened, setHasResetOpened] = useState(false);
  // Two required fields need no form library: it would be 13.6 kB of /login's start-up (ADR 018).
  // As before, the fields are checked on submit, and again on every change once submitted.
  const [values, setValues] = useState<LoginForm>({ username: "", password: "" });
  const [isSubmitted, setSubmitted] = useState(false);
  const [errors, setErrors] = useState<LoginErrors>({});
  const login = useMutation({ mutationFn: (input: LoginForm) => signIn(input) });
  const change = (field: keyof LoginForm) => (event: { target: { value: string } }) => {
    const next = { ...values, [field]: event.target.value };
    setValues(next);
    if (isSubmitted) setErrors(validateLogin(next));
  };

  if (resetCode !== null) {
    return (
      <Stack sx={{ alignItems: "center", mt: { xs: 2, sm: 6 } }}>
        <Card sx={{ width: "100%", maxWidth: 420 }} elevation={3}>
          <CardContent>
            <Suspense fallback={null}>
              <ResetPasswordForm
                code={resetCode}
                onDone={(username) => {
                  if (username) setValues((current) => ({ ...current, username }));
                  setParams({}, { replace: true });
                }}
              />
            </Suspense>
          </CardContent>
        </Card>
      </Stack>
    );
  }

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const found = validateLogin(values);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      const first = Object.keys(found)[0];
      (event.currentTarget as HTMLFormElement).querySelector<HTMLInputElement>(`[name="${first}"]`)?.focus();
      return;
    }
    login.mutate({ username: values.username.trim(), password: values.password });
  };

  return (
    <Stack sx={{ alignItems: "center", mt: { xs: 2, sm: 6 } }}>
      <Card sx={{ width: "100%", maxWidth: 420 }} elevation={3}>
        <CardContent component="form" noValidate onSubmit={handleSubmit}>
          <Stack spacing={2.5}>
            <Typography data-testid="page-title" variant="h5" component="h1">
              {t("login.title")}
            </Typography>
            {login.isError ? <LoginError error={login.error} /> : null}
            <LoginField
              name="username"
              label={t("login.username")}
              autoComplete="username"
              autoFocus
              value={values.username}
              onChange={change("username")}
              error={errors.username}
            />
            <LoginField
              name="password"
              label={t("login.password")}
              type={isPasswordShown ? "text" : "password"}
              autoComplete="current-password"
              value={values.password}
              onChange={change("password")}
              error={errors.password}
              endAdornment={
                <InputAdornment position="end">
                  <IconButton
                    aria-label={isPasswordShown ? t("login.hidePassword") : t("login.showPassword")}
                    onClick={() => setPasswordShown((shown) => !shown)}
                    edge="end"
                  >
                    {isPasswordShown ? <VisibilityOff /> : <Visibility />}
                  </IconButton>
                </InputAdornment>
              }
            />
            <Button type="submit" variant="contained" size="large" loading={login.isPending}>
              {t("login.enter")}
            </Button>
            <Button component={RouterLink} to="/demo" variant="outlined">
              {t("login.demo")}
            </Button>
            <Divider />
            <Stack direction="row" sx={{ justifyContent: "space-between", flexWrap: "wrap", gap: 1 }}>
              <Link
                component="button"
                type="button"
                variant="body2"
                onClick={() => {
                  setHasResetOpened(true);
                  setResetOpen(true);
                }}
              >
                {t("login.forgotPassword")}
              </Link>
              <Link component={RouterLink} to="/registry" variant="body2">
                {t("login.signUp")}
              </Link>
            </Stack>
          </Stack>
        </CardContent>
      </Card>
      {hasResetOpened ? (
        <Suspense fallback={null}>
          <ResetPasswordDialog
            isOpen={isResetOpen}
            onClose={() => setResetOpen(false)}
            onHaveCode={() => {
              setResetOpen(false);
              setParams({ reset: "" });
            }}
          />
        </Suspense>
      ) : null}
    </Stack>
  );
}
