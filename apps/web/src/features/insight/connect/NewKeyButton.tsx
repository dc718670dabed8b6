import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { apiErrorText } from "../../../app/api/handleTransportError";
import { useNewDeviceKey } from "../insight.queries";

/** Makes the router a new key on the server (a cryptographic random source); asks first when it replaces one. */
export function NewKeyButton({
  deviceId,
  hasKey,
  onKey,
}: {
  deviceId: string;
  hasKey: boolean;
  onKey: (key: string) => void;
}) {
  const { t } = useTranslation();
  const make = useNewDeviceKey(deviceId);
  const [isAsking, setIsAsking] = useState(false);
  const handleMake = () =>
    make.mutate(undefined, {
      onSuccess: (key) => {
        setIsAsking(false);
        onKey(key);
      },
    });
  return (
    <>
      <Button
        size="small"
        variant="outlined"
        onClick={() => (hasKey ? setIsAsking(true) : handleMake())}
        disabled={make.isPending}
        data-testid="generate-key"
      >
        {hasKey ? t("insight.connect.replaceKey") : t("insight.connect.generateKey")}
      </Button>
      {make.isError && !isAsking ? <Alert severity="error">{apiErrorText(make.error)}</Alert> : null}
      <Dialog open={isAsking} onClose={() => setIsAsking(false)}>
        <DialogTitle>{t("insight.connect.replaceKey")}</DialogTitle>
        <DialogContent>{t("insight.connect.replaceWarning")}</DialogContent>
        <DialogActions>
          <Button onClick={() => setIsAsking(false)}>{t("common.cancel")}</Button>
          <Button
            color="warning"
            variant="contained"
            onClick={handleMake}
            disabled={make.isPending}
            data-testid="confirm-new-key"
          >
            {t("insight.connect.replaceKey")}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
