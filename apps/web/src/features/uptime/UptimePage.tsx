import {
  REPORT_MONTH_PATTERN,
  type ReportScope,
  type UptimeFigures,
  type UptimeReport,
  type UptimeReportRequest,
} from "@cellfleet/contract";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Link from "@mui/material/Link";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useSearchParams } from "react-router";
import { formatNumber } from "../../app/format";
import { formatBytes, formatDuration, orDash } from "../../components/format";
import { SignalLabel } from "../../components/labels";
import { ListCard } from "../../components/list-card";
import { PageTitle } from "../../components/PageTitle";
import { QueryState } from "../../components/QueryState";
import { tagFrequenciesQueryOptions } from "../devices/devices.queries";
import { UptimeChart } from "./UptimeChart";
import { UptimePdfButton } from "./UptimePdfButton";
import { uptimeReportQueryOptions } from "./uptime.queries";

/** `YYYY-MM` of a moment in the browser's zone, `back` months earlier. */
function monthText(back: number): string {
  const now = new Date();
  const at = new Date(now.getFullYear(), now.getMonth() - back, 1);
  return `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, "0")}`;
}

/** The report the address asks for: last month of the whole domain unless it says otherwise. */
function requestOf(params: URLSearchParams): UptimeReportRequest {
  const month = params.get("month") ?? "";
  const scope = params.get("scope");
  const request: UptimeReportRequest = { month: REPORT_MONTH_PATTERN.test(month) ? month : monthText(1) };
  if (scope === "tag" && params.get("tag")) return { ...request, scope, tag: params.get("tag") ?? "" };
  if (scope === "device" && params.get("device"))
    return { ...request, scope, device_id: params.get("device") ?? "" };
  return { ...request, scope: "domain" };
}

/** /uptime: a month's connected time, outages, backup SIM, signal, data and firmware of the routers. */
export function UptimePage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const request = requestOf(params);
  const query = useQuery(uptimeReportQueryOptions(request));
  const tags = useQuery(tagFrequenciesQueryOptions());
  const tagNames = Object.keys(tags.data ?? {}).sort();
  const change = (next: Partial<{ month: string; scope: ReportScope; tag: string; device: string }>) => {
    const merged = {
      month: request.month,
      scope: request.scope ?? "domain",
      tag: request.tag ?? "",
      device: request.device_id ?? "",
      ...next,
    };
    const out = new URLSearchParams({ month: merged.month, scope: merged.scope });
    if (merged.scope === "tag" && merged.tag) out.set("tag", merged.tag);
    if (merged.scope === "device" && merged.device) out.set("device", merged.device);
    setParams(out, { replace: true });
  };

  return (
    <>
      <PageTitle>{t("routes.uptime")}</PageTitle>
      <Stack sx={{ gap: 2 }}>
        <Card variant="outlined">
          <CardContent>
            <Stack direction={{ xs: "column", sm: "row" }} sx={{ gap: 2, alignItems: { sm: "center" } }}>
              <TextField
                label={t("uptime.month")}
                type="month"
                size="small"
                value={request.month}
                onChange={(event) => {
                  if (REPORT_MONTH_PATTERN.test(event.target.value)) change({ month: event.target.value });
                }}
                slotProps={{
                  inputLabel: { shrink: true },
                  htmlInput: { max: monthText(0), "data-testid": "uptime-month" },
                }}
              />
              <TextField
                select
                label={t("uptime.scope")}
                size="small"
                value={request.scope === "tag" ? "tag" : "domain"}
                onChange={(event) =>
                  change({ scope: event.target.value as ReportScope, tag: tagNames[0] ?? "" })
                }
                sx={{ minWidth: 180 }}
              >
                <MenuItem value="domain">{t("uptime.scopes.domain")}</MenuItem>
                <MenuItem value="tag" disabled={tagNames.length === 0}>
                  {t("uptime.scopes.tag")}
                </MenuItem>
              </TextField>
              {request.scope === "tag" ? (
                <TextField
                  select
                  label={t("uptime.tag")}
                  size="small"
                  value={tagNames.includes(request.tag ?? "") ? request.tag : ""}
                  onChange={(event) => change({ tag: event.target.value })}
                  sx={{ minWidth: 160 }}
                >
                  {tagNames.map((tag) => (
                    <MenuItem key={tag} value={tag}>
                      {tag}
                    </MenuItem>
                  ))}
                </TextField>
              ) : null}
              {request.scope === "device" ? (
                <Button onClick={() => change({ scope: "domain" })}>{t("uptime.allRouters")}</Button>
              ) : null}
              <UptimePdfButton request={request} />
            </Stack>
          </CardContent>
        </Card>
        <QueryState query={query}>
          {(report) => (
            <>
              <Card variant="outlined">
                <CardContent>
                  <TotalsLine report={report} />
                  <UptimeChart report={report} />
                  <Typography variant="caption" color="text.secondary" component="p">
                    {t("uptime.chartLegend", { zone: report.time_zone })}
                  </Typography>
                </CardContent>
              </Card>
              <ListCard
                title={t("uptime.routers")}
                subtitle={t("uptime.count", { count: report.totals.routers })}
                onReload={() => void query.refetch()}
                csvExport={{ section: "uptime", body: request }}
              >
                <RoutersTable
                  report={report}
                  onOpenRouter={(id) => change({ scope: "device", device: id })}
                />
              </ListCard>
            </>
          )}
        </QueryState>
      </Stack>
    </>
  );
}

function percentText(value: number | null, language: string): string {
  return value === null ? "—" : `${formatNumber(value, language)} %`;
}

function TotalsLine({ report }: { report: UptimeReport }) {
  const { t, i18n } = useTranslation();
  const totals = report.totals;
  const facts = [
    [t("uptime.connected"), percentText(totals.connected_percent, i18n.language)],
    [t("uptime.outages"), String(totals.outages.count)],
    [t("uptime.outageTotal"), formatDuration(totals.outages.total_ms / 1000)],
    [t("uptime.backupSim"), formatDuration(totals.backup_sim_ms / 1000)],
  ];
  return (
    <Stack
      direction="row"
      sx={{ flexWrap: "wrap", columnGap: 4, rowGap: 1, mb: 2 }}
      data-testid="uptime-totals"
    >
      {facts.map(([label, value]) => (
        <Stack key={label}>
          <Typography variant="caption" color="text.secondary">
            {label}
          </Typography>
          <Typography variant="h6" component="p">
            {value}
          </Typography>
        </Stack>
      ))}
    </Stack>
  );
}

/** Columns a phone leaves out, so the table fits its width (the CSV and a wide screen have them all). */
const WIDE_ONLY = { display: { xs: "none", md: "table-cell" } } as const;

function FigureCells({ figures }: { figures: UptimeFigures }) {
  const { i18n } = useTranslation();
  const bytes = figures.sims.reduce((sum, sim) => sum + sim.rx + sim.tx, 0);
  const duration = (ms: number) => (ms > 0 ? formatDuration(ms / 1000) : "—");
  return (
    <>
      <TableCell align="right">{percentText(figures.connected_percent, i18n.language)}</TableCell>
      <TableCell align="right">{figures.outages.count}</TableCell>
      <TableCell align="right" sx={WIDE_ONLY}>
        {duration(figures.outages.longest_ms)}
      </TableCell>
      <TableCell align="right" sx={WIDE_ONLY}>
        {duration(figures.outages.total_ms)}
      </TableCell>
      <TableCell align="right" sx={WIDE_ONLY}>
        {duration(figures.backup_sim_ms)}
      </TableCell>
      <TableCell sx={WIDE_ONLY}>
        <SignalLabel quality={figures.signal.quality} csq={figures.signal.csq} />
      </TableCell>
      <TableCell align="right" sx={WIDE_ONLY} title={figures.sims.map((sim) => sim.iccid).join(", ")}>
        {figures.sims.length > 0 ? formatBytes(bytes) : "—"}
      </TableCell>
      <TableCell align="right" sx={WIDE_ONLY}>
        {orDash(figures.firmware_changes || null)}
      </TableCell>
    </>
  );
}

function RoutersTable({
  report,
  onOpenRouter,
}: {
  report: UptimeReport;
  onOpenRouter: (id: string) => void;
}) {
  const { t } = useTranslation();
  const columns = [
    ["connected", true],
    ["outages", true],
    ["longest", false],
    ["outageTotal", false],
    ["backupSim", false],
    ["signal", false],
    ["data", false],
    ["firmware", false],
  ] as const;
  return (
    <TableContainer sx={{ overflowX: "auto" }}>
      <Table size="small" data-testid="uptime-table">
        <TableHead>
          <TableRow>
            <TableCell>{t("uptime.router")}</TableCell>
            {columns.map(([column, isOnPhone]) => (
              <TableCell
                key={column}
                align={column === "signal" ? "left" : "right"}
                sx={isOnPhone ? undefined : WIDE_ONLY}
              >
                {t(`uptime.${column}`)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {report.routers.map((router) => (
            <TableRow key={router._id} data-testid="uptime-row">
              <TableCell>
                <Stack>
                  <Link
                    component="button"
                    type="button"
                    onClick={() => onOpenRouter(router._id)}
                    // A long ident breaks anywhere, so a phone's table keeps its width.
                    sx={{ textAlign: "left", overflowWrap: "anywhere", wordBreak: "break-all" }}
                  >
                    {router.ident}
                  </Link>
                  <Link component={RouterLink} to={`/device/${router._id}`} variant="caption">
                    {t("uptime.openDevice")}
                  </Link>
                </Stack>
              </TableCell>
              <FigureCells figures={router.figures} />
            </TableRow>
          ))}
          <TableRow data-testid="uptime-total-row" sx={{ "& td": { fontWeight: 600 } }}>
            <TableCell>{t("uptime.total")}</TableCell>
            <FigureCells figures={report.totals} />
          </TableRow>
        </TableBody>
      </Table>
    </TableContainer>
  );
}
