import { actionResultLabelKey, type Execution } from "@cellfleet/contract";
import Link from "@mui/material/Link";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { RelativeTime } from "../../../components/labels";
import { useNow } from "../../../components/useNow";
import { typeLabel } from "../commandTypes";
import { ExecutionStatusChip } from "./CommandStatusChip";

const WIDE_ONLY = { display: { xs: "none", md: "table-cell" } } as const;

/** Executions (the spec's reports): router, status, result, code, attempts, output, last change. */
export function ExecutionsTable({
  rows,
  hasCommand = false,
}: {
  rows: readonly Execution[];
  hasCommand?: boolean;
}) {
  const { t } = useTranslation();
  const now = useNow();
  return (
    <TableContainer>
      <Table size="small" data-testid="executions-table">
        <TableHead>
          <TableRow>
            <TableCell>{t("commands.columns.device")}</TableCell>
            {hasCommand ? <TableCell sx={WIDE_ONLY}>{t("commands.columns.type")}</TableCell> : null}
            <TableCell>{t("commands.columns.status")}</TableCell>
            <TableCell sx={WIDE_ONLY}>{t("commands.columns.result")}</TableCell>
            <TableCell sx={WIDE_ONLY}>{t("commands.columns.code")}</TableCell>
            <TableCell sx={WIDE_ONLY}>{t("commands.columns.attempts")}</TableCell>
            <TableCell sx={WIDE_ONLY}>{t("commands.columns.output")}</TableCell>
            <TableCell>{t("commands.columns.updated")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row._id} data-testid="execution-row" data-status={row.status}>
              <TableCell>
                <Link component={RouterLink} to={`/report/${row.device._id}/${row._id}`}>
                  {row.device.ident}
                </Link>
              </TableCell>
              {hasCommand ? (
                <TableCell sx={WIDE_ONLY}>
                  <Link component={RouterLink} to={`/command/${row.command_id}`}>
                    {typeLabel(t, row.type)}
                  </Link>
                </TableCell>
              ) : null}
              <TableCell>
                <ExecutionStatusChip status={row.status} />
              </TableCell>
              <TableCell sx={WIDE_ONLY}>{t(`commands.result.${actionResultLabelKey(row.result)}`)}</TableCell>
              <TableCell sx={WIDE_ONLY}>{row.code ?? "—"}</TableCell>
              <TableCell sx={WIDE_ONLY}>{row.attempts}</TableCell>
              <TableCell sx={{ ...WIDE_ONLY, maxWidth: 280 }}>
                <Typography variant="body2" noWrap title={row.output}>
                  {row.output || "—"}
                </Typography>
              </TableCell>
              <TableCell>
                <RelativeTime time={row.update_time} now={now} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
