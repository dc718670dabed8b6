import {
  checkPasswordConfirmation,
  DEFAULT_POLICY,
  defaultPathFor,
  type Role,
  usesAdminPasswordRules,
  validatePassword,
} from "@cellfleet/contract";
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
import { apiErrorText } from "../../app/api/handleTransportError";
import { pushInfoMessage } from "../../app/messages/messageStore";
import { formError } from "../../app/messages/texts";
import { sessionStore } from "../../app/session/sessionStore";
import { useChangePassword } from "./profile.queries";

interface PasswordForm {
  current: string;
  new: string;
  confirm: string;
}

const EMPTY: PasswordForm = { current: "", new: "", confirm: "" };

/**
 * Current, new and confirmation. The default policy's rules (contract checkPassword) and the
 * confirmation are checked before submitting; server refusals are shown here by their code.
 */
export function ChangePasswordForm({ role, username }: { role: Role; username: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useForm<PasswordForm>({ defaultValues: EMPTY });
  const change = useChangePassword();
  const { errors } = form.formState;

  const handleSubmit = form.handleSubmit((values) => {
    const wasLocked = sessionStore.get()?.factory_password ?? false;
    change.mutate(values, {
      onSuccess: (user) => {
        form.reset(EMPTY);
        pushInfoMessage({ level: "success", text: t("profile.passwordChanged") });
        if (wasLocked && user && !user.factory_password) navigate(defaultPathFor(user), { replace: true });
      },
    });
  });

  const validateNew = (value: string, all: PasswordForm) => {
    const error = validatePassword(value, DEFAULT_POLICY, {
      isAdmin: usesAdminPasswordRules(role),
      current: all.current || undefined,
    });
    return error === null || formError(error);
  };

  return (
    <Card variant="outlined">
      <CardContent component="form" noValidate onSubmit={handleSubmit}>
        <Stack spacing={2.5}>
          <Typography variant="h6" component="h2">
            {t("profile.changePasswordTitle")}
          </Typography>
          {change.isError ? <Alert severity="error">{apiErrorText(change.error)}</Alert> : null}
          {/* Lets password managers file the new password under the right account. */}
          <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
          <TextField
            label={t("profile.currentPassword")}
            type="password"
            autoComplete="current-password"
            error={Boolean(errors.current)}
            helperText={errors.current?.message}
            {...form.register("current", {
              validate: (value) => value.length > 0 || formError("required"),
            })}
          />
          <TextField
            label={t("profile.newPassword")}
            type="password"
            autoComplete="new-password"
            error={Boolean(errors.new)}
            helperText={errors.new?.message ?? t("profile.passwordHint")}
            {...form.register("new", { validate: validateNew, deps: ["confirm"] })}
          />
          <TextField
            label={t("profile.confirmPassword")}
            type="password"
            autoComplete="new-password"
            error={Boolean(errors.confirm)}
            helperText={errors.confirm?.message}
            {...form.register("confirm", {
              validate: (value, all) => {
                const error = checkPasswordConfirmation(all.new, value);
                return error === null || formError(error);
              },
            })}
          />
          <Stack direction="row" sx={{ justifyContent: "flex-end" }}>
            <Button type="submit" variant="contained" loading={change.isPending}>
              {t("profile.changePassword")}
            </Button>
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  );
}
