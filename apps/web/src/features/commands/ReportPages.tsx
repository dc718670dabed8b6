import { actionResultLabelKey } from "@cellfleet/contract";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useParams } from "react-router";
import { apiDownload } from "../../app/api/http";
import { PageTitle } from "../../components/PageTitle";
import { QueryState } from "../../components/QueryState";
import { reportQueryOptions, reportsQueryOptions, useLiveCommands } from "./commands.queries";
import { ExecutionStatusChip } from "./components/CommandStatusChip";
import { ExecutionsTable } from "./components/ExecutionsTable";

/** /reports/: every router's executions of the domain's commands, newest first. */
export function ReportsPage() {
  const { t } = useTranslation();
  const reports = useQuery(reportsQueryOptions({}));
  useLiveCommands();
  return (
    <>
      <PageTitle>{t("routes.reports")}</PageTitle>
      <Card>
        <QueryState
          query={reports}
          isInset
          isEmpty={(rows) => rows.length === 0}
          emptyText={t("commands.noExecutions")}
        >
          {(rows) => <ExecutionsTable rows={rows.slice(0, 500)} hasCommand />}
        </QueryState>
      </Card>
    </>
  );
}

/** /report/{device_id}/{report_id}: one router's execution: status, result, code, output, its file. */
export function ReportPage() {
  const { t, i18n } = useTranslation();
  const { device_id: deviceId = "", report_id: reportId = "" } = useParams();
  const report = useQuery(reportQueryOptions(deviceId, reportId));
  return (
    <>
      <PageTitle>{t("routes.report")}</PageTitle>
      <QueryState query={report}>
        {(row) => (
          <Card>
            <CardContent>
              <Stack spacing={1.5}>
                <Stack direction="row" spacing={2} sx={{ alignItems: "center" }}>
                  <Typography variant="h6">{row.device.ident}</Typography>
                  <ExecutionStatusChip status={row.status} />
                </Stack>
                <Typography variant="body2">
                  {t("commands.columns.result")}: {t(`commands.result.${actionResultLabelKey(row.result)}`)} ·{" "}
                  {t("commands.columns.code")}: {row.code ?? "—"} · {t("commands.columns.attempts")}:{" "}
                  {row.attempts}
                </Typography>
                <Typography variant="body2">
                  <Link component={RouterLink} to={`/command/${row.command_id}`}>
                    {t("commands.openCommand")}
                  </Link>
                  {" · "}
                  <Link component={RouterLink} to={`/device/${row.device._id}`}>
                    {t("commands.openDevice")}
                  </Link>
                  {row.file_id ? (
                    <>
                      {" · "}
                      <Link
                        component="button"
                        variant="body2"
                        onClick={() =>
                          void apiDownload("GET /api/file/{fileId}", `${row.device.ident}-${row.type}`, {
                            params: { fileId: row.file_id ?? "" },
                          })
                        }
                        data-testid="report-file"
                      >
                        {t("commands.reportFile")}
                      </Link>
                    </>
                  ) : null}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {new Date(row.update_time).toLocaleString(i18n.language)}
                </Typography>
                <Typography
                  component="pre"
                  variant="body2"
                  sx={{ p: 1, bgcolor: "action.hover", borderRadius: 1, whiteSpace: "pre-wrap" }}
                  data-testid="report-output"
                >
                  {row.output || t("commands.noOutput")}
                </Typography>
              </Stack>
            </CardContent>
          </Card>
        )}
      </QueryState>
    </>
  );
}
