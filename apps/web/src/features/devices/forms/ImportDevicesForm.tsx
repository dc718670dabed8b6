import {
  DEVICE_IMPORT_REASONS,
  type DeviceImportPlan,
  type DeviceImportRow,
  isValidationKey,
} from "@cellfleet/contract";
import DownloadIcon from "@mui/icons-material/Download";
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
import Typography from "@mui/material/Typography";
import type { TFunction } from "i18next";
import { type ChangeEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { saveBlob } from "../../../app/api/saveBlob";
import { formError, translateErrorCode } from "../../../app/messages/texts";
import { useApplyDeviceImport, useCheckDeviceImport } from "../deviceImport.queries";
import { serverErrorText } from "./serverErrorText";

/** Rows the table shows at most; the counts above it cover the whole file. */
const SHOWN_ROWS = 500;

/** Fixed columns whose long words wrap, so a phone's table fits its width (Russian words are long). */
const TABLE_SX = {
  tableLayout: "fixed",
  "& td, & th": { overflowWrap: "anywhere", px: { xs: 1, sm: 2 } },
} as const;

const OUTCOME_COLOURS = {
  create: "success",
  change: "info",
  unchanged: "default",
  refuse: "error",
} as const;

/** Routers from a CSV or XLSX file: choose it, see the dry run row by row, apply it, save the generated keys. */
export function ImportDevicesForm() {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const check = useCheckDeviceImport();
  const apply = useApplyDeviceImport();
  const plan = apply.data ?? check.data;
  const hasWork = Boolean(check.data && check.data.create + check.data.change > 0);

  function handleFile(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0];
    event.target.value = "";
    if (!chosen) return;
    setFile(chosen);
    apply.reset();
    check.mutate(chosen);
  }

  function handleApply() {
    if (file && check.data) apply.mutate({ file, plan: check.data.plan });
  }

  function handleDownloadKeys() {
    if (apply.data) saveBlob(new Blob([apply.data.keys_csv], { type: "text/csv" }), "router-keys.csv");
  }

  return (
    <Stack spacing={2.5}>
      <Typography color="text.secondary">{t("deviceImport.help")}</Typography>
      <Stack direction="row" sx={{ gap: 2, alignItems: "center", flexWrap: "wrap" }}>
        <Button
          component="label"
          variant="outlined"
          startIcon={<UploadFileIcon />}
          disabled={check.isPending}
        >
          {t("deviceImport.choose")}
          <input
            hidden
            type="file"
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            data-testid="import-file"
            onChange={handleFile}
          />
        </Button>
        {file ? <Chip label={file.name} /> : null}
        <Button
          variant="contained"
          disabled={!hasWork || apply.isPending || apply.isSuccess}
          onClick={handleApply}
        >
          {t("deviceImport.apply")}
        </Button>
      </Stack>
      {check.isError ? <Alert severity="error">{serverErrorText(check.error)}</Alert> : null}
      {apply.isError ? <Alert severity="error">{serverErrorText(apply.error)}</Alert> : null}
      {apply.data ? (
        <Alert
          severity="success"
          data-testid="import-done"
          action={
            apply.data.keys.length > 0 ? (
              <Button color="inherit" size="small" startIcon={<DownloadIcon />} onClick={handleDownloadKeys}>
                {t("deviceImport.downloadKeys")}
              </Button>
            ) : null
          }
        >
          {t("deviceImport.doneText", { created: apply.data.create, changed: apply.data.change })}
          {apply.data.keys.length > 0
            ? ` ${t("deviceImport.keysOnce", { number: apply.data.keys.length })}`
            : ""}
        </Alert>
      ) : null}
      {plan ? <ImportPlanTable plan={plan} isApplied={Boolean(apply.data)} /> : null}
    </Stack>
  );
}

function rowDetail(row: DeviceImportRow, t: TFunction): string {
  if (row.outcome === "change") return row.fields.map((field) => t(`deviceImport.field.${field}`)).join(", ");
  if (row.outcome !== "refuse") return "";
  const code = translateErrorCode(row.code ?? "BAD_REQUEST", row.code ?? "");
  if (!row.reason) return code;
  const reason = isValidationKey(row.reason)
    ? formError(row.reason)
    : (DEVICE_IMPORT_REASONS as readonly string[]).includes(row.reason)
      ? t(`deviceImport.reason.${row.reason}`)
      : row.reason;
  return `${code}: ${reason}`;
}

/** The plan's counts and its rows (refused first, so they are seen), as the dry run or the apply answered. */
function ImportPlanTable({ plan, isApplied }: { plan: DeviceImportPlan; isApplied: boolean }) {
  const { t } = useTranslation();
  const ordered = [
    ...plan.rows.filter((row) => row.outcome === "refuse"),
    ...plan.rows.filter((row) => row.outcome !== "refuse"),
  ];
  return (
    <>
      <Stack direction="row" sx={{ gap: 1, flexWrap: "wrap" }} data-testid="import-counts">
        {(["create", "change", "unchanged", "refuse"] as const).map((outcome) => (
          <Chip
            key={outcome}
            color={OUTCOME_COLOURS[outcome]}
            variant={plan[outcome] > 0 ? "filled" : "outlined"}
            label={`${t(`deviceImport.${isApplied ? "done" : "will"}.${outcome}`)}: ${plan[outcome]}`}
          />
        ))}
      </Stack>
      {plan.rows.length > SHOWN_ROWS ? (
        <Typography variant="body2" color="text.secondary">
          {t("deviceImport.shown", { shown: SHOWN_ROWS, total: plan.rows.length })}
        </Typography>
      ) : null}
      <TableContainer>
        <Table size="small" data-testid="import-rows" sx={TABLE_SX}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: "5.5rem" }}>{t("fleet.bulk.line")}</TableCell>
              <TableCell sx={{ width: "37%" }}>{t("fleet.columns.ident")}</TableCell>
              <TableCell>{t("fleet.bulk.result")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {ordered.slice(0, SHOWN_ROWS).map((row) => (
              <TableRow key={row.line}>
                <TableCell>{row.line}</TableCell>
                <TableCell>{row.ident}</TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    color={OUTCOME_COLOURS[row.outcome]}
                    variant="outlined"
                    label={t(`deviceImport.outcome.${row.outcome}`)}
                  />
                  {/* The reason under the outcome, so a phone's table keeps three columns. */}
                  {row.outcome === "change" || row.outcome === "refuse" ? (
                    <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                      {rowDetail(row, t)}
                    </Typography>
                  ) : null}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </>
  );
}
