import {
  type DictionaryKind,
  formErrorText,
  parseDictionary,
  validateDictionaryEntries,
  validateDictionaryFile,
} from "@cellfleet/contract";
import UploadFileIcon from "@mui/icons-material/UploadFile";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { isApiError } from "../../../app/api/ApiError";
import { apiErrorText } from "../../../app/api/handleTransportError";
import { currentLocale } from "../../../app/i18n";

const SHOWN_ENTRIES = 12;

interface DictionaryFieldProps {
  kind: DictionaryKind;
  label: string;
  entries: string[];
  isReadOnly: boolean;
  /**
   * A stored policy uploads the file to the server, which parses it; a new one parses it here
   * and saves the entries with the policy.
   */
  onUpload: (file: File) => Promise<string[] | null>;
  onClear: () => void;
}

/** A forbidden-sequences or forbidden-phrases list: its entries and a .txt/.csv upload (one entry per line). */
export function DictionaryField({
  kind,
  label,
  entries,
  isReadOnly,
  onUpload,
  onClear,
}: DictionaryFieldProps) {
  const { t } = useTranslation();
  const inputId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);

  const handleFile = async (file: File | undefined) => {
    setProblem(null);
    const invalid = validateDictionaryFile(file ?? null);
    if (invalid !== null || !file) {
      setProblem(formErrorText(invalid ?? "noFile", currentLocale(), { name: file?.name ?? "" }));
      return;
    }
    setBusy(true);
    try {
      await onUpload(file);
    } catch (error) {
      setProblem(isApiError(error) || !(error instanceof Error) ? apiErrorText(error) : error.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack spacing={1} data-testid={`dictionary-${kind}`}>
      <Stack direction="row" sx={{ alignItems: "center", gap: 1, flexWrap: "wrap" }}>
        <Typography variant="subtitle2" sx={{ flexGrow: 1 }}>
          {label} · {t("accounting.policies.entries", { count: entries.length })}
        </Typography>
        {isReadOnly ? null : (
          <>
            <Button
              component="label"
              htmlFor={inputId}
              size="small"
              startIcon={<UploadFileIcon />}
              loading={isBusy}
            >
              {t("accounting.policies.upload")}
              <input
                id={inputId}
                type="file"
                accept=".txt,.csv,text/plain,text/csv"
                hidden
                onChange={(event) => {
                  void handleFile(event.target.files?.[0]);
                  event.target.value = "";
                }}
              />
            </Button>
            {entries.length > 0 ? (
              <Button size="small" color="inherit" onClick={onClear}>
                {t("accounting.policies.clearList")}
              </Button>
            ) : null}
          </>
        )}
      </Stack>
      {entries.length > 0 ? (
        <Stack direction="row" sx={{ flexWrap: "wrap", gap: 0.5 }}>
          {entries.slice(0, SHOWN_ENTRIES).map((entry) => (
            <Chip key={entry} size="small" label={entry} />
          ))}
          {entries.length > SHOWN_ENTRIES ? (
            <Chip size="small" variant="outlined" label={`+${entries.length - SHOWN_ENTRIES}`} />
          ) : null}
        </Stack>
      ) : (
        <Typography variant="body2" color="text.secondary">
          {t("accounting.policies.noEntries")}
        </Typography>
      )}
      {problem ? <Alert severity="error">{problem}</Alert> : null}
    </Stack>
  );
}

/** Parses a dictionary file in the browser (for a policy not stored yet), as the server would. */
export async function parseDictionaryFile(file: File): Promise<string[]> {
  const entries = parseDictionary(await file.text(), file.name);
  const invalid = validateDictionaryEntries(entries);
  if (invalid !== null) throw new Error(formErrorText(invalid, currentLocale()));
  return entries;
}
