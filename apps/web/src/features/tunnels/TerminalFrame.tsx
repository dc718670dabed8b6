import CloseIcon from "@mui/icons-material/Close";
import Dialog from "@mui/material/Dialog";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** The frame of a terminal dialog, live or replayed: the title with its close button, the content in a column. */
export function TerminalFrame({
  title,
  testId,
  onClose,
  children,
}: {
  title: string;
  testId: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open fullWidth maxWidth="lg" onClose={onClose} data-testid={testId}>
      <DialogTitle sx={{ pr: 6 }}>
        {title}
        <IconButton
          aria-label={t("remote.close")}
          onClick={onClose}
          sx={{ position: "absolute", right: 8, top: 8 }}
        >
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent>
        <Stack sx={{ gap: 1 }}>{children}</Stack>
      </DialogContent>
    </Dialog>
  );
}
