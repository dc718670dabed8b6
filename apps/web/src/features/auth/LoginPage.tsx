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
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useMutation } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useSearchParams } from "react-router";
import { isApiError } from "../../app/api/ApiError";
import { apiErrorText } from "../../app/api/handleTransportError";
import { formError, notice } from "../../app/messages/texts";
import { signIn } from "../../app/session/session.api";
import { ResetPasswordForm } from "./ResetPasswordForm";

// Fetched on the first "Forgot password?" click, then kept mounted so it closes with its animation:
// /login's start-up bundle carries no dialog (ADR 018).
const ResetPasswordDialog = lazy(async () => ({
  default: (await import("./ResetPasswordDialog")).ResetPasswordDialog,
}));

interface LoginForm {
  username: string;
  password: string;
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
  const form = useForm<LoginForm>({ defaultValues: { username: "", password: "" } });
  const login = useMutation({ mutationFn: (values: LoginForm) => signIn(values) });
  const { errors } = form.formState;

  if (resetCode !== null) {
    return (
      <Stack sx={{ alignItems: "center", mt: { xs: 2, sm: 6 } }}>
        <Card sx={{ width: "100%", maxWidth: 420 }} elevation={3}>
          <CardContent>
            <ResetPasswordForm
              code={resetCode}
              onDone={(username) => {
                if (username) form.setValue("username", username);
                setParams({}, { replace: true });
              }}
            />
          </CardContent>
        </Card>
      </Stack>
    );
  }

  const handleSubmit = form.handleSubmit((values) =>
    login.mutate({ username: values.username.trim(), password: values.password }),
  );

  return (
    <Stack sx={{ alignItems: "center", mt: { xs: 2, sm: 6 } }}>
      <Card sx={{ width: "100%", maxWidth: 420 }} elevation={3}>
        <CardContent component="form" noValidate onSubmit={handleSubmit}>
          <Stack spacing={2.5}>
            <Typography data-testid="page-title" variant="h5" component="h1">
              {t("login.title")}
            </Typography>
            {login.isError ? <LoginError error={login.error} /> : null}
            <TextField
              label={t("login.username")}
              autoComplete="username"
              autoFocus
              error={Boolean(errors.username)}
              helperText={errors.username?.message}
              {...form.register("username", {
                validate: (value) => value.trim().length > 0 || formError("required"),
              })}
            />
            <TextField
              label={t("login.password")}
              type={isPasswordShown ? "text" : "password"}
              autoComplete="current-password"
              error={Boolean(errors.password)}
              helperText={errors.password?.message}
              {...form.register("password", {
                validate: (value) => value.trim().length > 0 || formError("required"),
              })}
              slotProps={{
                input: {
                  endAdornment: (
                    <InputAdornment position="end">
                      <IconButton
                        aria-label={isPasswordShown ? t("login.hidePassword") : t("login.showPassword")}
                        onClick={() => setPasswordShown((shown) => !shown)}
                        edge="end"
                      >
                        {isPasswordShown ? <VisibilityOff /> : <Visibility />}
                      </IconButton>
                    </InputAdornment>
                  ),
                },
              }}
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
