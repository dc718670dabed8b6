import {
  type CommonFileType,
  expectedExtension,
  type FileDto,
  formErrorText,
  plainFileName,
  UPLOAD_RETURN_DELAY_MS,
  validateCommonUpload,
} from "@cellfleet/contract";
import AttachFileIcon from "@mui/icons-material/AttachFile";
import CloudUploadIcon from "@mui/icons-material/CloudUpload";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import LinearProgress from "@mui/material/LinearProgress";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { type ChangeEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { isApiError } from "../../../app/api/ApiError";
import { currentLocale } from "../../../app/i18n";
import { pushInfoMessage } from "../../../app/messages/messageStore";
import { notice, translateErrorCode } from "../../../app/messages/texts";
import { useFormatFileSize } from "../fileLists";
import { fileUploadPath, uploadFile } from "../files.api";
import { useInvalidateFiles } from "../files.queries";

interface UploadFormProps {
  fileType: CommonFileType;
  /** Called 2 s after a successful upload (spec section 9), to return to the list. */
  onDone: (file: FileDto) => void;
  onCancel: () => void;
}

type Phase = { kind: "idle" } | { kind: "sending"; sent: number; total: number } | { kind: "done" };

/**
 * Uploads one common file with a real progress bar (bytes sent of total). The file is checked in
 * the browser first (25 MB or more is refused naming it, a wrong extension too); the server checks
 * again. Success says 'File upload success' and returns after 2 s; failure says 'File upload error'
 * with the path, the reason and the file's name (spec section 8).
 */
export function UploadForm({ fileType, onDone, onCancel }: UploadFormProps) {
  const { t } = useTranslation();
  const formatSize = useFormatFileSize();
  const invalidate = useInvalidateFiles();
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const [failure, setFailure] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const returnTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(
    () => () => {
      abort.current?.abort();
      clearTimeout(returnTimer.current);
    },
    [],
  );

  const problem = file ? validateCommonUpload(fileType, file) : null;
  const problemText =
    problem && file ? formErrorText(problem, currentLocale(), { name: plainFileName(file.name) }) : null;
  const extension = expectedExtension(fileType);

  function handleChoose(event: ChangeEvent<HTMLInputElement>) {
    setFile(event.target.files?.[0] ?? null);
    setFailure(null);
    setPhase({ kind: "idle" });
  }

  async function handleUpload() {
    if (!file || problem) return;
    const controller = new AbortController();
    abort.current = controller;
    setFailure(null);
    setPhase({ kind: "sending", sent: 0, total: file.size });
    try {
      const stored = await uploadFile(
        fileType,
        file,
        (sent, total) => setPhase({ kind: "sending", sent, total }),
        controller.signal,
      );
      setPhase({ kind: "done" });
      pushInfoMessage({ level: "success", text: notice("fileUploadSuccess") });
      void invalidate();
      returnTimer.current = setTimeout(() => onDone(stored), UPLOAD_RETURN_DELAY_MS);
    } catch (error) {
      if (controller.signal.aborted) return;
      const reason = !isApiError(error)
        ? String(error)
        : error.status === 413
          ? notice("tooLargeFile")
          : translateErrorCode(error.code, error.message);
      const text = notice("fileUploadError", {
        name: plainFileName(file.name),
        path: fileUploadPath(fileType),
        reason,
      });
      setFailure(text);
      setPhase({ kind: "idle" });
      pushInfoMessage({ level: "warning", text });
    }
  }

  const isSending = phase.kind === "sending";
  const percent =
    phase.kind === "sending" && phase.total > 0 ? Math.round((phase.sent / phase.total) * 100) : 0;
  return (
    <Card variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 760 }} data-testid="upload-form">
      <Stack spacing={2}>
        <Typography color="text.secondary">
          {fileType === "firmware"
            ? t("files.upload.hintFirmware")
            : extension
              ? t("files.upload.hintExtension", { extension })
              : t(`files.upload.hint.${fileType}`)}
        </Typography>
        <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ alignItems: { sm: "center" } }}>
          <Button
            component="label"
            variant="outlined"
            startIcon={<AttachFileIcon />}
            disabled={isSending}
            sx={{ flexShrink: 0 }}
          >
            {t("files.upload.choose")}
            <input
              hidden
              type="file"
              accept={extension ? `.${extension}` : undefined}
              onChange={handleChoose}
              data-testid="upload-input"
            />
          </Button>
          <Typography sx={{ overflowWrap: "anywhere" }} data-testid="upload-chosen">
            {file
              ? `${plainFileName(file.name)} · ${formatSize(file.size)}`
              : t("files.upload.nothingChosen")}
          </Typography>
        </Stack>
        {problemText ? (
          <Alert severity="error" data-testid="upload-problem">
            {problemText}
          </Alert>
        ) : null}
        {phase.kind === "sending" ? (
          <Stack spacing={0.5} data-testid="upload-progress">
            <LinearProgress variant="determinate" value={percent} aria-label={t("files.upload.progress")} />
            <Typography variant="body2" color="text.secondary">
              {t("files.upload.sent", {
                sent: formatSize(phase.sent),
                total: formatSize(phase.total),
                percent,
              })}
            </Typography>
          </Stack>
        ) : null}
        {phase.kind === "done" ? (
          <Alert severity="success" data-testid="upload-done">
            {notice("fileUploadSuccess")}
          </Alert>
        ) : null}
        {failure ? (
          <Alert severity="error" data-testid="upload-failure" sx={{ wordBreak: "break-word" }}>
            {failure}
          </Alert>
        ) : null}
        <Stack direction="row" spacing={1} sx={{ justifyContent: "flex-end" }}>
          <Button
            onClick={() => {
              abort.current?.abort();
              onCancel();
            }}
          >
            {t("files.upload.cancel")}
          </Button>
          <Button
            variant="contained"
            startIcon={<CloudUploadIcon />}
            disabled={!file || problem !== null || isSending || phase.kind === "done"}
            onClick={() => void handleUpload()}
          >
            {t("files.upload.send")}
          </Button>
        </Stack>
      </Stack>
    </Card>
  );
}
