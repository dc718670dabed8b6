import FingerprintIcon from "@mui/icons-material/Fingerprint";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { CopyButton } from "../../../components/CopyButton";
import { QueryState } from "../../../components/QueryState";
import { fingerprintQueryOptions } from "../licenses.queries";

/** 'Digital print': this installation's fingerprint, to send the vendor for an offline licence file. */
export function FingerprintButton() {
  const { t } = useTranslation();
  const [isOpen, setOpen] = useState(false);
  const query = useQuery({ ...fingerprintQueryOptions(), enabled: isOpen });
  return (
    <>
      <Button startIcon={<FingerprintIcon />} onClick={() => setOpen(true)} data-testid="license-fingerprint">
        {t("licenses.fingerprint")}
      </Button>
      <Dialog open={isOpen} onClose={() => setOpen(false)} maxWidth="sm" fullWidth>
        <DialogTitle>{t("licenses.fingerprint")}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {t("licenses.fingerprintHelp")}
          </Typography>
          <QueryState query={query}>
            {(answer) => (
              <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
                <Typography
                  sx={{ fontFamily: "monospace", wordBreak: "break-all", flexGrow: 1 }}
                  data-testid="license-fingerprint-value"
                >
                  {answer.fingerprint}
                </Typography>
                <CopyButton text={answer.fingerprint} label={t("licenses.copyFingerprint")} />
              </Stack>
            )}
          </QueryState>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{t("licenses.close")}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
