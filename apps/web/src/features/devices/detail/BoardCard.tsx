import type { BoardCollect, Device, DeviceCollect } from "@cellfleet/contract";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatBytes, formatDuration, orDash } from "../../../components/format";
import { RelativeTime, SignalLabel } from "../../../components/labels";
import { ConnectionChip, StatusChip } from "../components/DeviceLabels";
import { CollectSection } from "./CollectSection";

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Typography variant="body2" component="div" sx={{ wordBreak: "break-word" }}>
        {children}
      </Typography>
    </Box>
  );
}

const GRID = { display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(140px, 1fr))", gap: 2, p: 2 };

/** The device itself (status, last contact, tags) and its board report (model, firmware, load, memory). */
export function BoardCard({
  device,
  collect,
  board,
  now,
}: {
  device: Device;
  collect: DeviceCollect | undefined;
  board: BoardCollect | null;
  now: number;
}) {
  const { t } = useTranslation();
  return (
    <Stack spacing={2}>
      <Box sx={{ ...GRID, border: 1, borderColor: "divider", borderRadius: 1 }} data-testid="device-summary">
        <Field label={t("fleet.columns.status")}>
          <StatusChip status={device.status} isLong />
        </Field>
        <Field label={t("fleet.connection.label")}>
          <ConnectionChip device={device} now={now} />
          {device.connected !== null && device.connection_time !== null ? (
            <Typography
              variant="caption"
              color="text.secondary"
              component="div"
              data-testid="connection-since"
            >
              <RelativeTime time={device.connection_time} now={now} hasClock />
            </Typography>
          ) : null}
        </Field>
        <Field label={t("fleet.columns.time")}>
          <RelativeTime time={device.time} now={now} />
        </Field>
        <Field label={t("fleet.columns.signal")}>
          <SignalLabel quality={device.signal.quality} csq={device.signal.csq} />
        </Field>
        <Field label={t("fleet.device.wan")}>
          {device.wan_up === null ? (
            "—"
          ) : (
            <Chip
              data-testid="device-wan"
              size="small"
              color={device.wan_up ? "success" : "error"}
              variant={device.wan_up ? "outlined" : "filled"}
              label={t(device.wan_up ? "fleet.wan.online" : "fleet.wan.offline")}
            />
          )}
        </Field>
        <Field label={t("fleet.columns.events")}>{device.events}</Field>
        <Field label={t("fleet.columns.description")}>{orDash(device.description)}</Field>
        <Field label={t("fleet.columns.tags")}>
          <Stack direction="row" sx={{ gap: 0.5, flexWrap: "wrap" }}>
            {device.tags.length ? device.tags.map((tag) => <Chip key={tag} size="small" label={tag} />) : "—"}
          </Stack>
        </Field>
        <Field label={t("fleet.device.key")}>
          {device.has_key ? t("fleet.device.keySet") : t("fleet.device.keyNotSet")}
        </Field>
      </Box>
      <CollectSection
        title={t("fleet.device.board")}
        collect={collect}
        now={now}
        testId="section-board"
        isReadable={board !== null}
      >
        {board ? (
          <Box sx={GRID}>
            <Field label={t("fleet.columns.model")}>
              {board.vendor ? `${board.vendor} ${board.model}` : board.model}
            </Field>
            <Field label={t("fleet.columns.firmware")}>{board.firmware}</Field>
            <Field label={t("fleet.device.serial")}>{board.serial}</Field>
            <Field label={t("fleet.device.hostname")}>{board.hostname}</Field>
            <Field label={t("fleet.modems.uptime")}>{formatDuration(board.uptime)}</Field>
            <Field label={t("fleet.device.cpu")}>{`${Math.round(board.cpu_load)} %`}</Field>
            <Field label={t("fleet.device.memory")}>
              {`${formatBytes(board.memory_total - board.memory_free)} / ${formatBytes(board.memory_total)}`}
            </Field>
            <Field label={t("fleet.device.temperature")}>
              {board.temperature === null ? "—" : `${board.temperature} °C`}
            </Field>
          </Box>
        ) : null}
      </CollectSection>
    </Stack>
  );
}
