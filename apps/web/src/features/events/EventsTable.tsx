import type { FleetEvent } from "@cellfleet/contract";
import DoneIcon from "@mui/icons-material/Done";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import IconButton from "@mui/material/IconButton";
import Link from "@mui/material/Link";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { formatBytes } from "../../components/format";
import { RelativeTime } from "../../components/labels";
import { useNow } from "../../components/useNow";

const LEVEL_COLORS = { info: "info", warning: "warning", error: "error" } as const;

// On a phone the message, device, time and state matter most; the kind waits for a wider screen and
// the level moves into the message cell.
const WIDE_ONLY = { display: { xs: "none", md: "table-cell" } } as const;

/** An event level chip; `alert` is shown as info (spec section 3). */
export function EventLevelChip({ level }: { level: FleetEvent["level"] }) {
  const { t } = useTranslation();
  const shown = level === "alert" ? "info" : level;
  return (
    <Chip
      size="small"
      variant="outlined"
      color={LEVEL_COLORS[shown]}
      label={t(`fleet.events.levels.${shown}`)}
    />
  );
}

interface EventsTableProps {
  events: FleetEvent[];
  /** Hide the device column (on a device's own page). */
  hasDevice?: boolean;
  onMarkRead?: (event: FleetEvent) => void;
}

/**
 * An event's text: as the router wrote it, or, for what the server raises itself (a data plan's
 * threshold), in the interface language from its details.
 */
function eventMessage(t: TFunction, event: FleetEvent): string {
  const details = event.details as {
    iccid?: string;
    percent?: number;
    used_bytes?: number;
    plan_bytes?: number;
  };
  if (event.kind === "data_plan_threshold" && details.iccid && details.plan_bytes !== undefined) {
    return t("insight.usage.event", {
      iccid: details.iccid,
      percent: details.percent,
      used: formatBytes(details.used_bytes ?? 0),
      plan: formatBytes(details.plan_bytes),
    });
  }
  return event.message;
}

/** A table of events: unread rows stand out and can be marked read one by one. */
export function EventsTable({ events, hasDevice = true, onMarkRead }: EventsTableProps) {
  const { t } = useTranslation();
  const now = useNow();
  return (
    <TableContainer>
      <Table size="small" data-testid="events-table">
        <TableHead>
          <TableRow>
            <TableCell sx={WIDE_ONLY}>{t("fleet.events.level")}</TableCell>
            <TableCell sx={WIDE_ONLY}>{t("fleet.events.kind")}</TableCell>
            <TableCell>{t("fleet.events.message")}</TableCell>
            {hasDevice ? <TableCell>{t("fleet.events.device")}</TableCell> : null}
            <TableCell>{t("fleet.events.time")}</TableCell>
            <TableCell align="right">{t("fleet.events.state")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {events.map((event) => (
            <TableRow
              key={event._id}
              hover
              data-testid="event-row"
              data-read={event.read}
              sx={{ "& td": { fontWeight: event.read ? undefined : 600 } }}
            >
              <TableCell sx={WIDE_ONLY}>
                <EventLevelChip level={event.level} />
              </TableCell>
              <TableCell sx={{ whiteSpace: "nowrap", ...WIDE_ONLY }}>
                {t(`fleet.eventKinds.${event.kind}`, { defaultValue: event.kind })}
              </TableCell>
              <TableCell sx={{ minWidth: 160 }}>
                {/* The level column waits for a wider screen; on a phone the level leads the message. */}
                <Box data-testid="event-level-narrow" sx={{ display: { xs: "block", md: "none" }, mb: 0.5 }}>
                  <EventLevelChip level={event.level} />
                </Box>
                {eventMessage(t, event)}
                {event.kind === "command_needs_approval" && typeof event.details.command_id === "string" ? (
                  <>
                    {" "}
                    <Link
                      component={RouterLink}
                      to={`/command/${event.details.command_id}`}
                      data-testid="approval-link"
                    >
                      {t("commands.approval.open")}
                    </Link>
                  </>
                ) : null}
              </TableCell>
              {hasDevice ? (
                <TableCell>
                  {event.device ? (
                    <Link component={RouterLink} to={`/device/${event.device._id}`}>
                      {event.device.ident}
                    </Link>
                  ) : (
                    "—"
                  )}
                </TableCell>
              ) : null}
              <TableCell>
                <RelativeTime time={event.create_time} now={now} hasClock />
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                {event.read ? (
                  <Chip size="small" label={t("fleet.events.read")} />
                ) : (
                  <>
                    <Chip size="small" color="error" label={t("fleet.events.unread")} sx={{ mr: 0.5 }} />
                    {onMarkRead ? (
                      <Tooltip title={t("fleet.events.markRead")}>
                        <IconButton
                          size="small"
                          aria-label={t("fleet.events.markRead")}
                          onClick={() => onMarkRead(event)}
                        >
                          <DoneIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    ) : null}
                  </>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
