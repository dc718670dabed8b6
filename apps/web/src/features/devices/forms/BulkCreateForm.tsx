import { BULK_DEVICES_MAX_LINES, type BulkCreateDevicesResult, isValidationKey } from "@cellfleet/contract";
import UploadFileIcon from "@mui/icons-material/UploadFile";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type ChangeEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiErrorText } from "../../../app/api/handleTransportError";
import { formError, translateErrorCode } from "../../../app/messages/texts";
import { useBulkCreateDevices } from "../device.queries";

function lineReason(result: BulkCreateDevicesResult["results"][number]): string {
  const code = translateErrorCode(result.result, result.result);
  return result.reason && isValidationKey(result.reason) ? `${code}: ${formError(result.reason)}` : code;
}

/** Many devices from a pasted list or a CSV file (`ident[,description[,tags;…[,key]]]`), with a result per line. */
export function BulkCreateForm() {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const [fileName, setFileName] = useState<string | null>(null);
  const create = useBulkCreateDevices();
  const lines = text.split(/\r?\n/).filter((line) => line.trim() && !line.trim().startsWith("#")).length;
  const isTooMany = lines > BULK_DEVICES_MAX_LINES;

  async function handleFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    setFileName(file.name);
    setText(await file.text());
  }

  return (
    <Stack spacing={2.5}>
      <Typography color="text.secondary">{t("fleet.bulk.help")}</Typography>
      <TextField
        label={t("fleet.bulk.list")}
        multiline
        minRows={8}
        maxRows={20}
        value={text}
        onChange={(event) => setText(event.target.value)}
        error={isTooMany}
        helperText={
          isTooMany
            ? t("fleet.bulk.tooMany", { max: BULK_DEVICES_MAX_LINES })
            : t("fleet.bulk.lines", { count: lines })
        }
        slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: "monospace" } } }}
      />
      <Stack direction="row" sx={{ gap: 2, alignItems: "center", flexWrap: "wrap" }}>
        <Button component="label" variant="outlined" startIcon={<UploadFileIcon />}>
          {t("fleet.bulk.csv")}
          <input hidden type="file" accept=".csv,.txt,text/csv,text/plain" onChange={handleFile} />
        </Button>
        {fileName ? <Chip label={fileName} onDelete={() => setFileName(null)} /> : null}
        <Button
          variant="contained"
          disabled={lines === 0 || isTooMany || create.isPending}
          onClick={() => create.mutate(text)}
        >
          {t("fleet.bulk.create")}
        </Button>
      </Stack>
      {create.isError ? <Alert severity="error">{apiErrorText(create.error)}</Alert> : null}
      {create.data ? (
        <>
          <Alert severity={create.data.failed ? "warning" : "success"} data-testid="bulk-summary">
            {t("fleet.bulk.summary", { created: create.data.created, failed: create.data.failed })}
          </Alert>
          <TableContainer>
            <Table size="small" data-testid="bulk-results">
              <TableHead>
                <TableRow>
                  <TableCell>{t("fleet.bulk.line")}</TableCell>
                  <TableCell>{t("fleet.columns.ident")}</TableCell>
                  <TableCell>{t("fleet.bulk.result")}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {create.data.results.map((result) => (
                  <TableRow key={result.line}>
                    <TableCell>{result.line}</TableCell>
                    <TableCell>{result.ident}</TableCell>
                    <TableCell>
                      {result.result === "created" ? (
                        <Chip size="small" color="success" label={t("fleet.bulk.created")} />
                      ) : (
                        <Chip size="small" color="error" variant="outlined" label={lineReason(result)} />
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </>
      ) : null}
    </Stack>
  );
}
