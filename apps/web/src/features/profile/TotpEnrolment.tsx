import type { TotpEnrolment as Enrolment } from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiErrorText } from "../../app/api/handleTransportError";
import { CopyButton } from "../../components/CopyButton";

interface TotpEnrolmentProps {
  enrolment: Enrolment;
  isPending: boolean;
  error: unknown;
  onConfirm: (code: string) => void;
  onCancel: () => void;
}

/** The QR code and key of a new authenticator app, and the code that confirms the scan. */
export function TotpEnrolment({ enrolment, isPending, error, onConfirm, onCancel }: TotpEnrolmentProps) {
  const { t } = useTranslation();
  const [code, setCode] = useState("");
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim()) onConfirm(code.trim());
  };
  return (
    <Stack component="form" spacing={2} onSubmit={handleSubmit} noValidate data-testid="totp-enrolment">
      <Typography variant="body2">{t("secondFactor.scanQr")}</Typography>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ alignItems: { sm: "center" } }}>
        <Box
          component="img"
          alt="QR"
          src={`data:image/svg+xml;utf8,${encodeURIComponent(enrolment.qr_svg)}`}
          sx={{ width: 176, height: 176, bgcolor: "#fff", p: 1, borderRadius: 1, flexShrink: 0 }}
        />
        <Stack spacing={0.5} sx={{ minWidth: 0 }}>
          <Typography variant="caption" color="text.secondary">
            {t("secondFactor.secretKey")}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
            <Typography
              data-testid="totp-secret"
              sx={{ fontFamily: "monospace", wordBreak: "break-all", fontSize: "0.95rem" }}
            >
              {enrolment.secret}
            </Typography>
            <CopyButton text={enrolment.secret} label={t("secondFactor.secretKey")} />
          </Stack>
        </Stack>
      </Stack>
      {error ? <Alert severity="error">{apiErrorText(error)}</Alert> : null}
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1} sx={{ alignItems: { sm: "flex-start" } }}>
        <TextField
          name="totp"
          label={t("secondFactor.code")}
          helperText={t("secondFactor.codeHint")}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          autoComplete="one-time-code"
          slotProps={{ htmlInput: { inputMode: "numeric", maxLength: 6 } }}
          sx={{ width: { sm: 200 } }}
        />
        <Button type="submit" variant="contained" loading={isPending} sx={{ mt: { sm: 1 } }}>
          {t("secondFactor.confirmApp")}
        </Button>
        <Button onClick={onCancel} sx={{ mt: { sm: 1 } }}>
          {t("secondFactor.cancel")}
        </Button>
      </Stack>
    </Stack>
  );
}
