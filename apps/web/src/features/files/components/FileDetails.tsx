import {
  type FileDto,
  fileTypeAccepts,
  isCommonFileType,
  isFileDeletable,
  plainFileName,
} from "@cellfleet/contract";
import DownloadIcon from "@mui/icons-material/Download";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiErrorText } from "../../../app/api/handleTransportError";
import { formatMoment } from "../../../app/format";
import { pushInfoMessage } from "../../../app/messages/messageStore";
import { notice } from "../../../app/messages/texts";
import { useOffers } from "../../../app/session/useOffers";
import { DeleteButton } from "../../../components/DeleteButton";
import { useFormatFileSize } from "../fileLists";
import { downloadFile } from "../files.api";
import { useDeleteFiles, useRenameFile } from "../files.queries";

interface FileDetailsProps {
  file: FileDto;
  /** Called once the file was deleted (the page goes back to its list). */
  onDeleted: () => void;
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack direction={{ xs: "column", sm: "row" }} spacing={{ xs: 0, sm: 2 }}>
      <Typography color="text.secondary" sx={{ minWidth: 160 }}>
        {label}
      </Typography>
      <Typography sx={{ wordBreak: "break-all" }} component="div">
        {children}
      </Typography>
    </Stack>
  );
}

/** A common file's page: what it is, its name (editable by those who may upload), download, delete. */
export function FileDetails({ file, onDeleted }: FileDetailsProps) {
  const { t, i18n } = useTranslation();
  const offers = useOffers();
  const formatSize = useFormatFileSize();
  const rename = useRenameFile(file._id);
  const remove = useDeleteFiles();
  const [name, setName] = useState(file.filename);
  const canRename = offers("files.upload") && isCommonFileType(file.file_type) && isFileDeletable(file);
  const trimmed = plainFileName(name);
  const doesNotFit =
    isCommonFileType(file.file_type) && trimmed !== "" && !fileTypeAccepts(file.file_type, trimmed);

  function handleRename(event: FormEvent) {
    event.preventDefault();
    rename.mutate(trimmed, {
      onSuccess: () => pushInfoMessage({ level: "success", text: notice("informationUpdated") }),
    });
  }

  return (
    <Card variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 760 }} data-testid="file-details">
      <Stack spacing={1.5}>
        <Field label={t("files.columns.type")}>{t(`files.types.${file.file_type}`)}</Field>
        <Field label={t("files.columns.size")}>
          {formatSize(file.size)} ({t("files.bytes", { count: file.size })})
        </Field>
        <Field label={t("files.columns.date")}>{formatMoment(file.create_date, i18n.language)}</Field>
        <Field label={t("files.columns.user")}>
          {file.metadata.user_name ??
            (file.metadata.user_id === null ? t("files.byRouter") : file.metadata.user_id)}
        </Field>
        <Field label="SHA-256">
          <code>{file.sha256}</code>
        </Field>
        {canRename ? (
          <Stack
            component="form"
            onSubmit={handleRename}
            direction={{ xs: "column", sm: "row" }}
            spacing={1}
            sx={{ pt: 1 }}
          >
            <TextField
              size="small"
              label={t("files.columns.filename")}
              value={name}
              onChange={(event) => setName(event.target.value)}
              error={doesNotFit}
              helperText={doesNotFit ? t("files.renameDoesNotFit") : undefined}
              sx={{ flexGrow: 1 }}
            />
            <Button
              type="submit"
              variant="outlined"
              disabled={trimmed === "" || doesNotFit || trimmed === file.filename || rename.isPending}
            >
              {t("files.rename")}
            </Button>
          </Stack>
        ) : (
          <Field label={t("files.columns.filename")}>{file.filename}</Field>
        )}
        {rename.isError ? <Alert severity="error">{apiErrorText(rename.error)}</Alert> : null}
        <Stack direction="row" spacing={1} sx={{ pt: 1, flexWrap: "wrap", gap: 1 }}>
          <Button
            variant="contained"
            startIcon={<DownloadIcon />}
            onClick={() => void downloadFile(file).catch(() => undefined)}
          >
            {t("files.download")}
          </Button>
          {offers("files.delete") && isFileDeletable(file) ? (
            <DeleteButton hasText onDelete={() => remove.mutate([file._id], { onSuccess: onDeleted })} />
          ) : null}
        </Stack>
      </Stack>
    </Card>
  );
}
