import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** What the dialog asks: its title, the figures, the confirming button's word, and whether it is red. */
export interface ConfirmQuestion {
  title: string;
  text: ReactNode;
  confirm: string;
  isDangerous?: boolean;
}

interface ConfirmDialogProps {
  /** The question; null keeps the dialog closed. */
  question: ConfirmQuestion | null;
  onConfirm: () => void;
  onClose: () => void;
  isBusy?: boolean;
}

/**
 * Asks once before a wide or dangerous action (issue 27): what it does to how many routers, with the
 * dry run's figures, and the action's own word on the confirming button. Cancel and Escape leave it.
 */
export function ConfirmDialog({ question, onConfirm, onClose, isBusy = false }: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={question !== null} onClose={onClose} data-testid="confirm-dialog">
      <DialogTitle>{question?.title}</DialogTitle>
      <DialogContent>
        <DialogContentText component="div">{question?.text}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common.cancel")}</Button>
        <Button
          variant="contained"
          color={question?.isDangerous ? "error" : "primary"}
          onClick={onConfirm}
          disabled={isBusy}
          data-testid="confirm-action"
        >
          {question?.confirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
