import type { RolloutProgress } from "@cellfleet/contract";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import { useTranslation } from "react-i18next";
import { timeOfMinute } from "../../components/time-window/timeWindow";

const COLUMNS = ["waiting", "sent", "succeeded", "failed", "skipped"] as const;
const COLOR = { offered: "warning", accepted: "success", declined: "default" } as const;

/** A rollout's domains (ADR 031): each one's answer to the offer, its window, and its routers' states. */
export function RolloutDomainsTable({ domains }: { domains: RolloutProgress["domains"] }) {
  const { t } = useTranslation();
  if (domains.length === 0) return null;
  return (
    <Box sx={{ overflowX: "auto" }}>
      <Table size="small" data-testid="rollout-domains">
        <TableHead>
          <TableRow>
            <TableCell>{t("software.rollout.domains.domain")}</TableCell>
            <TableCell>{t("software.rollout.domains.answer")}</TableCell>
            <TableCell>{t("software.rollout.domains.window")}</TableCell>
            {COLUMNS.map((column) => (
              <TableCell key={column} align="right">
                {t(`software.rollout.state.${column}`)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {domains.map((domain) => (
            <TableRow key={domain.domain_id} data-testid="rollout-domain-row">
              <TableCell sx={{ whiteSpace: "nowrap" }}>{domain.name}</TableCell>
              <TableCell>
                <Chip
                  size="small"
                  color={COLOR[domain.state]}
                  variant="outlined"
                  label={t(
                    domain.auto
                      ? "software.rollout.domains.auto"
                      : `software.rollout.domains.state.${domain.state}`,
                  )}
                />
              </TableCell>
              <TableCell sx={{ whiteSpace: "nowrap" }}>
                {domain.window
                  ? `${timeOfMinute(domain.window.start)}–${timeOfMinute(domain.window.end)}`
                  : "—"}
              </TableCell>
              {COLUMNS.map((column) => (
                <TableCell key={column} align="right">
                  {domain[column]}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
