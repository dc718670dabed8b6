import type { SecondFactorChallenge } from "@cellfleet/contract";
import { type FormEvent, lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useSearchParams } from "react-router";
import { isApiError } from "../../app/api/ApiError";
import { apiErrorText } from "../../app/api/handleTransportError";
import { withTexts } from "../../app/i18n";
import { MuiScope } from "../../app/MuiScope";
import { formError, notice } from "../../app/messages/texts";
import { signIn } from "../../app/session/session.api";
import { Icon } from "../../app/signedOut/icons";
import { Alert, Button, Field } from "../../app/signedOut/parts";
import { useCall } from "../../app/signedOut/useCall";

// Fetched on the first "Forgot password?" click, then kept mounted so it closes with its animation:
// /login's start-up bundle carries no dialog (ADR 018). Both forms speak console texts, fetched with them.
const ResetPasswordDialog = lazy(async () => ({
  default: (await withTexts("resetPasswordDialog", () => import("./ResetPasswordDialog")))
    .ResetPasswordDialog,
}));
// Only a person with a second factor sees it, after the right password (ADR 039).
const SecondFactorStep = lazy(async () => ({
  default: (await withTexts("secondFactorStep", () => import("./SecondFactorStep"))).SecondFactorStep,
}));
// Only the e-mailed link (`?reset=`) shows it.
const ResetPasswordForm = lazy(async () => ({
  default: (await withTexts("resetPasswordForm", () => import("./ResetPasswordForm"))).ResetPasswordForm,
}));

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
 * /login: username and password, in plain markup and CSS (no MUI: ADR 018, round 4); on success the route guard opens the user's default page. With
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
  const [challenge, setChallenge] = useState<SecondFactorChallenge["second_factor"] | null>(null);
  const login = useCall(async (input: LoginForm) => {
    const answer = await signIn(input);
    if ("second_factor" in answer) setChallenge(answer.second_factor);
  });
  const change = (field: keyof LoginForm) => (event: { target: { value: string } }) => {
    const next = { ...values, [field]: event.target.value };
    setValues(next);
    if (isSubmitted) setErrors(validateLogin(next));
  };

  if (resetCode !== null) {
    return (
      <div className="so-page">
        <div className="so-card">
          <div className="so-card-content">
            <MuiScope>
              <Suspense fallback={null}>
                <ResetPasswordForm
                  code={resetCode}
                  onDone={(username) => {
                    if (username) setValues((current) => ({ ...current, username }));
                    setParams({}, { replace: true });
                  }}
                />
              </Suspense>
            </MuiScope>
          </div>
        </div>
      </div>
    );
  }

  if (challenge !== null) {
    return (
      <div className="so-page">
        <div className="so-card">
          <Suspense fallback={null}>
            <SecondFactorStep
              challenge={challenge}
              onBack={() => {
                setChallenge(null);
                setValues((current) => ({ ...current, password: "" }));
              }}
            />
          </Suspense>
        </div>
      </div>
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
    login.call({ username: values.username.trim(), password: values.password });
  };

  return (
    <div className="so-page">
      <div className="so-card">
        <form className="so-card-content" noValidate onSubmit={handleSubmit}>
          <div className="so-stack so-stack-20">
            <h1 data-testid="page-title" className="so-h5">
              {t("login.title")}
            </h1>
            {login.isError ? <LoginError error={login.error} /> : null}
            <Field
              name="username"
              label={t("login.username")}
              autoComplete="username"
              autoFocus
              value={values.username}
              onChange={change("username")}
              error={errors.username}
            />
            <Field
              name="password"
              label={t("login.password")}
              type={isPasswordShown ? "text" : "password"}
              autoComplete="current-password"
              value={values.password}
              onChange={change("password")}
              error={errors.password}
              endAdornment={
                <button
                  type="button"
                  className="so-icon-button so-icon-button--end"
                  aria-label={isPasswordShown ? t("login.hidePassword") : t("login.showPassword")}
                  onClick={() => setPasswordShown((shown) => !shown)}
                >
                  <Icon name={isPasswordShown ? "visibilityOff" : "visibility"} />
                </button>
              }
            />
            <Button type="submit" variant="contained" large isLoading={login.isPending}>
              {t("login.enter")}
            </Button>
            <RouterLink to="/demo" className="so-button so-button--outlined">
              {t("login.demo")}
            </RouterLink>
            <hr className="so-divider" />
            <div className="so-row">
              <button
                type="button"
                className="so-link"
                onClick={() => {
                  setHasResetOpened(true);
                  setResetOpen(true);
                }}
              >
                {t("login.forgotPassword")}
              </button>
              <RouterLink to="/registry" className="so-link">
                {t("login.signUp")}
              </RouterLink>
            </div>
          </div>
        </form>
      </div>
      {hasResetOpened ? (
        <MuiScope>
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
        </MuiScope>
      ) : null}
    </div>
  );
}
