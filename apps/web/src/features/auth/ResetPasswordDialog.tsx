import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import { useTranslation } from "react-i18next";

/** Password reset is a later issue: the dialog says so honestly and points to the administrator. */
export function ResetPasswordDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={isOpen} onClose={onClose} aria-labelledby="reset-password-title">
      <DialogTitle id="reset-password-title">{t("login.resetPassword")}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t("login.resetPasswordComingSoon")}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}
