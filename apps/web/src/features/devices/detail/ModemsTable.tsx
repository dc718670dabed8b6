import {
  type ModemReport,
  modemRoleLabelKey,
  signalQualityFromCsq,
  wanStateLabelKey,
} from "@cellfleet/contract";
import KeyboardArrowDownIcon from "@mui/icons-material/KeyboardArrowDown";
import KeyboardArrowUpIcon from "@mui/icons-material/KeyboardArrowUp";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Collapse from "@mui/material/Collapse";
import IconButton from "@mui/material/IconButton";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { Fragment, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatBytes, formatDecibels, formatDuration, orDash } from "../../../components/format";
import { SignalLabel } from "../../../components/labels";

const COLUMNS = ["state", "role", "mode", "sim", "operator", "ip", "module", "band", "signal"] as const;

function ModemDetails({ modem }: { modem: ModemReport }) {
  const { t } = useTranslation();
  const fields: [string, string][] = [
    ["IMEI", orDash(modem.imei)],
    ["ICCID", orDash(modem.iccid)],
    ["IMSI", orDash(modem.imsi)],
    [t("fleet.modems.rxTx"), `${formatBytes(modem.rx)} / ${formatBytes(modem.tx)}`],
    [t("fleet.modems.uptime"), formatDuration(modem.uptime)],
    ["RSRQ", modem.rsrq === null ? "—" : formatDecibels(modem.rsrq, "dB")],
    ["RSSI", modem.rssi === null ? "—" : formatDecibels(modem.rssi, "dBm")],
    ["RSRP", modem.rsrp === null ? "—" : formatDecibels(modem.rsrp, "dBm")],
    ["SINR", modem.sinr === null ? "—" : formatDecibels(modem.sinr, "dB")],
    ["CSQ", orDash(modem.csq)],
  ];
  return (
    <Box
      sx={{ display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(150px, 1fr))", gap: 1.5, p: 2 }}
      data-testid="modem-details"
    >
      {fields.map(([label, value]) => (
        <Box key={label}>
          <Typography variant="caption" color="text.secondary">
            {label}
          </Typography>
          <Typography variant="body2" sx={{ fontFamily: "monospace", wordBreak: "break-all" }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/** WAN modems (spec section 2) with expandable rows of identifiers, counters and radio measurements. */
export function ModemsTable({ modems }: { modems: ModemReport[] }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  if (modems.length === 0) {
    return (
      <Typography color="text.secondary" sx={{ p: 2 }}>
        {t("fleet.modems.none")}
      </Typography>
    );
  }
  function toggle(id: string) {
    setOpen((previous) => {
      const next = new Set(previous);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }
  return (
    <TableContainer>
      <Table size="small" data-testid="modems-table">
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox" />
            {COLUMNS.map((column) => (
              <TableCell key={column} sx={{ whiteSpace: "nowrap" }}>
                {t(`fleet.modems.${column}`)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {modems.map((modem) => {
            const isOpen = open.has(modem.id);
            const state = wanStateLabelKey(modem.state);
            return (
              <Fragment key={modem.id}>
                <TableRow
                  hover
                  data-testid="modem-row"
                  sx={{ "& > td": { borderBottom: isOpen ? "unset" : undefined } }}
                >
                  <TableCell padding="checkbox">
                    <IconButton
                      size="small"
                      aria-label={t(isOpen ? "fleet.modems.collapse" : "fleet.modems.expand")}
                      aria-expanded={isOpen}
                      onClick={() => toggle(modem.id)}
                    >
                      {isOpen ? <KeyboardArrowUpIcon /> : <KeyboardArrowDownIcon />}
                    </IconButton>
                  </TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      color={state === "online" ? "success" : "default"}
                      label={t(`fleet.wan.${state}`)}
                    />
                  </TableCell>
                  <TableCell>{t(`fleet.modems.${modemRoleLabelKey(modem.primary)}`)}</TableCell>
                  <TableCell>{modem.mode}</TableCell>
                  <TableCell>{modem.sim}</TableCell>
                  <TableCell>{orDash(modem.operator)}</TableCell>
                  <TableCell sx={{ fontFamily: "monospace" }}>{orDash(modem.ip)}</TableCell>
                  <TableCell>{modem.module}</TableCell>
                  <TableCell>{orDash(modem.band)}</TableCell>
                  <TableCell>
                    <SignalLabel quality={signalQualityFromCsq(modem.csq)} csq={modem.csq} />
                  </TableCell>
                </TableRow>
                <TableRow>
                  <TableCell sx={{ py: 0 }} colSpan={COLUMNS.length + 1}>
                    <Collapse in={isOpen} unmountOnExit>
                      <ModemDetails modem={modem} />
                    </Collapse>
                  </TableCell>
                </TableRow>
              </Fragment>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
