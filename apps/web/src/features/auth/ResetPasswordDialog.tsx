import { validateRequired } from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { useMutation } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { rule } from "../../components/forms/formRules";
import { mailErrorText } from "../registry/mailErrorText";
import { requestPasswordReset } from "../registry/registry.api";

interface ResetPasswordDialogProps {
  isOpen: boolean;
  onClose: () => void;
  /** Opens the form for the e-mailed code. */
  onHaveCode: () => void;
}

/** 'Forgot password?': a username or e-mail gets a reset code and link by e-mail. */
export function ResetPasswordDialog({ isOpen, onClose, onHaveCode }: ResetPasswordDialogProps) {
  const { t } = useTranslation();
  const form = useForm<{ login: string }>({ defaultValues: { login: "" } });
  const send = useMutation({ mutationFn: (login: string) => requestPasswordReset(login) });
  const { errors } = form.formState;

  const handleClose = () => {
    send.reset();
    form.reset();
    onClose();
  };
  const handleSubmit = form.handleSubmit((values) => send.mutate(values.login.trim()));

  return (
    <Dialog
      open={isOpen}
      onClose={handleClose}
      aria-labelledby="reset-password-title"
      fullWidth
      maxWidth="xs"
    >
      <form noValidate onSubmit={handleSubmit}>
        <DialogTitle id="reset-password-title">{t("login.resetPassword")}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <DialogContentText>{t("accounting.reset.intro")}</DialogContentText>
            {send.isSuccess ? (
              <Alert data-testid="reset-sent" severity="success">
                {t("accounting.reset.sent")}
              </Alert>
            ) : null}
            {send.isError ? <Alert severity="error">{mailErrorText(send.error)}</Alert> : null}
            <TextField
              autoFocus
              label={t("accounting.reset.login")}
              autoComplete="username"
              error={Boolean(errors.login)}
              helperText={errors.login?.message}
              {...form.register("login", { validate: rule(validateRequired) })}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onHaveCode}>{t("accounting.reset.haveCode")}</Button>
          <Button onClick={handleClose}>{t("common.close")}</Button>
          <Button type="submit" variant="contained" loading={send.isPending}>
            {t("accounting.reset.send")}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
