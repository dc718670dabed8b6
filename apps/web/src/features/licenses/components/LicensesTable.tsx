import type { License } from "@cellfleet/contract";
import RefreshIcon from "@mui/icons-material/Refresh";
import WarningAmberIcon from "@mui/icons-material/WarningAmber";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { useFormatNumber } from "../../../app/format";
import { LicenseStatusChip } from "./LicenseStatusChip";

function formatDay(iso: string | null, language: string): string {
  if (!iso) return "—";
  return new Intl.DateTimeFormat(language, { dateStyle: "medium" }).format(new Date(iso));
}

function formatWhen(iso: string | null, language: string): string {
  if (!iso) return "—";
  return new Intl.DateTimeFormat(language, { dateStyle: "short", timeStyle: "short" }).format(new Date(iso));
}

/**
 * The licence list's table (spec §2): id, status chip, last update, info period, device count. A
 * licence held while its last refresh failed keeps its status and shows the failure beside it.
 */
export function LicensesTable({
  licenses,
  onRefresh,
}: {
  licenses: readonly License[];
  onRefresh?: (license: License) => void;
}) {
  const { t, i18n } = useTranslation();
  const formatNumber = useFormatNumber();
  return (
    <TableContainer>
      <Table size="small" data-testid="licenses-table">
        <TableHead>
          <TableRow>
            <TableCell>{t("licenses.columns.id")}</TableCell>
            <TableCell>{t("licenses.columns.status")}</TableCell>
            <TableCell>{t("licenses.columns.updated")}</TableCell>
            <TableCell>{t("licenses.columns.period")}</TableCell>
            <TableCell align="right">{t("licenses.columns.devices")}</TableCell>
            {onRefresh ? <TableCell padding="checkbox" /> : null}
          </TableRow>
        </TableHead>
        <TableBody>
          {licenses.map((license) => (
            <TableRow key={license._id} data-testid="license-row" data-id={license._id}>
              <TableCell sx={{ fontFamily: "monospace", whiteSpace: "nowrap" }}>
                {license.license_id}
              </TableCell>
              <TableCell>
                <Stack direction="row" spacing={0.5} sx={{ alignItems: "center" }}>
                  <LicenseStatusChip license={license} />
                  {license.error && license.devices > 0 ? (
                    <Tooltip title={t(`licenses.errors.${license.error}`)}>
                      <WarningAmberIcon
                        fontSize="small"
                        color="warning"
                        data-testid="license-refresh-failed"
                      />
                    </Tooltip>
                  ) : null}
                </Stack>
              </TableCell>
              <TableCell sx={{ whiteSpace: "nowrap" }}>
                {formatWhen(license.update_time ?? license.check_time, i18n.language)}
              </TableCell>
              <TableCell sx={{ whiteSpace: "nowrap" }}>
                {license.validFromDate ? (
                  `${formatDay(license.validFromDate, i18n.language)} – ${formatDay(license.validUpToDate, i18n.language)}`
                ) : (
                  <Typography variant="body2" color="text.secondary" component="span">
                    —
                  </Typography>
                )}
              </TableCell>
              <TableCell align="right">{formatNumber(license.devices)}</TableCell>
              {onRefresh ? (
                <TableCell padding="checkbox">
                  <Tooltip title={t("licenses.refreshOne")}>
                    <span>
                      <IconButton
                        size="small"
                        disabled={license.refreshing}
                        onClick={() => onRefresh(license)}
                        aria-label={t("licenses.refreshOne")}
                      >
                        <RefreshIcon fontSize="small" />
                      </IconButton>
                    </span>
                  </Tooltip>
                </TableCell>
              ) : null}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
