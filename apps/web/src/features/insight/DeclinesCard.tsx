import Card from "@mui/material/Card";
import Divider from "@mui/material/Divider";
import Link from "@mui/material/Link";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { formatDecibels } from "../../components/format";
import { SignalLabel } from "../../components/labels";
import { QueryState } from "../../components/QueryState";
import { signalDeclinesQueryOptions } from "./declines.queries";

/** The dashboard's routers whose signal got worse: the last 24 hours' mean against the day before. */
export function DeclinesCard() {
  const { t } = useTranslation();
  const declines = useQuery(signalDeclinesQueryOptions());
  return (
    <Card variant="outlined" data-testid="signal-declines" sx={{ mb: 2 }}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, px: 2, pt: 1.25 }}>
        {t("insight.declines.title")}
      </Typography>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ px: 2, pb: 1 }}>
        {t("insight.declines.explain")}
      </Typography>
      <Divider />
      <QueryState
        query={declines}
        isInset
        isEmpty={(rows) => rows.length === 0}
        emptyText={t("insight.declines.empty")}
      >
        {(rows) => (
          <Table size="small" sx={{ "& td, & th": { px: 2 } }}>
            <TableHead>
              <TableRow>
                <TableCell>{t("fleet.columns.ident")}</TableCell>
                <TableCell>{t("insight.declines.modem")}</TableCell>
                <TableCell align="right">{t("insight.declines.change")}</TableCell>
                <TableCell align="right" sx={{ display: { xs: "none", sm: "table-cell" } }}>
                  {t("insight.declines.now")}
                </TableCell>
                <TableCell>{t("fleet.columns.signal")}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row._id} data-testid="decline-row">
                  <TableCell>
                    <Link component={RouterLink} to={`/device/${row._id}`}>
                      {row.ident}
                    </Link>
                  </TableCell>
                  <TableCell>{row.modem}</TableCell>
                  <TableCell align="right" sx={{ color: "error.main", whiteSpace: "nowrap" }}>
                    {formatDecibels(row.change, "dB", { signed: true })}
                  </TableCell>
                  <TableCell
                    align="right"
                    sx={{ whiteSpace: "nowrap", display: { xs: "none", sm: "table-cell" } }}
                  >
                    {`${row.metric.toUpperCase()} ${formatDecibels(row.now, "dBm")}`}
                  </TableCell>
                  <TableCell>
                    <SignalLabel quality={row.quality} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </QueryState>
    </Card>
  );
}
