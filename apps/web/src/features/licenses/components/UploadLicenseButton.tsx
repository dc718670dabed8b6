import UploadFileIcon from "@mui/icons-material/UploadFile";
import Button from "@mui/material/Button";
import { type ChangeEvent, useRef } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../app/api/ApiError";
import { pushInfoMessage } from "../../../app/messages/messageStore";
import { translateErrorCode } from "../../../app/messages/texts";
import { useUploadLicense } from "../licenses.queries";

/** A licence file is a few hundred bytes; anything near this is not one. */
const MAX_LICENSE_FILE_BYTES = 16_384;

/** Offline activation: root picks the licence file the vendor signed for this installation's digital print. */
export function UploadLicenseButton({ onDone }: { onDone?: () => void }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadLicense();
  const handleFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    if (file.size > MAX_LICENSE_FILE_BYTES) {
      pushInfoMessage({ level: "critical", text: t("licenses.fileTooLarge", { name: file.name }) });
      return;
    }
    upload.mutate(await file.text(), {
      onSuccess: () => onDone?.(),
      onError: (error) => {
        const isRefused = error instanceof ApiError && error.status === 400;
        pushInfoMessage({
          level: "critical",
          text: isRefused
            ? t("licenses.uploadRefused", { name: file.name })
            : translateErrorCode(error instanceof ApiError ? error.code : null, error.message),
        });
      },
    });
  };
  return (
    <>
      <Button
        startIcon={<UploadFileIcon />}
        onClick={() => input.current?.click()}
        loading={upload.isPending}
        data-testid="license-upload"
      >
        {t("licenses.upload")}
      </Button>
      <input
        ref={input}
        type="file"
        accept=".json,.lic,application/json"
        hidden
        onChange={(event) => void handleFile(event)}
        data-testid="license-upload-input"
      />
    </>
  );
}
