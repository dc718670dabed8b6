import { type InfoMessageLevel, MESSAGE_TIMEOUT_MS } from "@cellfleet/contract";
import Alert, { type AlertColor } from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Snackbar from "@mui/material/Snackbar";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { dismissInfoMessage, useCurrentInfoMessage } from "./messageStore";

const ALERT_COLOR: Record<InfoMessageLevel, AlertColor> = {
  critical: "error",
  warning: "warning",
  info: "info",
  success: "success",
};

/** Shows the head of the info-message queue, one at a time, for 5 seconds each (spec section 4). */
export function InfoMessageHost() {
  const { t } = useTranslation();
  const message = useCurrentInfoMessage();
  const id = message?.id ?? null;
  const handleClose = useCallback(
    (_event: unknown, reason?: string) => {
      if (reason === "clickaway" || id === null) return;
      dismissInfoMessage(id);
    },
    [id],
  );
  if (!message) return null;
  return (
    <Snackbar
      key={message.id}
      open
      autoHideDuration={MESSAGE_TIMEOUT_MS}
      onClose={handleClose}
      anchorOrigin={{ vertical: "bottom", horizontal: "center" }}
    >
      <Alert
        data-testid="info-message"
        severity={ALERT_COLOR[message.level]}
        variant="filled"
        onClose={() => dismissInfoMessage(message.id)}
        action={
          message.link ? (
            <Button color="inherit" size="small" component={Link} to={message.link}>
              {t("common.open")}
            </Button>
          ) : undefined
        }
        sx={{ width: "100%" }}
      >
        {message.text}
      </Alert>
    </Snackbar>
  );
}
