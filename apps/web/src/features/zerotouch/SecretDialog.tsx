import type { ZeroTouchSecretAnswer } from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { CopyButton } from "../../components/CopyButton";

function Line({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Stack spacing={0.5}>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
        <Typography
          data-testid={testId}
          sx={{ fontFamily: "monospace", fontSize: 14, wordBreak: "break-all", flexGrow: 1 }}
        >
          {value}
        </Typography>
        <CopyButton text={value} label={label} />
      </Stack>
    </Stack>
  );
}

/** The secret of a new configuration (or a new secret), shown this once, with what routers present. */
export function SecretDialog({
  answer,
  onClose,
}: {
  answer: ZeroTouchSecretAnswer | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  if (!answer) return null;
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{t("zeroTouch.secret.title")}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Alert severity="warning">{t("zeroTouch.secret.once")}</Alert>
          <Line label={t("zeroTouch.fields.keyId")} value={answer.config.key_id} testId="zt-key-id" />
          <Line label={t("zeroTouch.secret.secret")} value={answer.secret} testId="zt-secret" />
          <Line
            label={t("zeroTouch.secret.username")}
            value={`zt1:${answer.config.key_id}:{model}:{serial}:{imei}`}
            testId="zt-username"
          />
          <Typography variant="body2" color="text.secondary">
            {t("zeroTouch.secret.password")}
          </Typography>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} variant="contained" data-testid="zt-secret-close">
          {t("zeroTouch.secret.done")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
