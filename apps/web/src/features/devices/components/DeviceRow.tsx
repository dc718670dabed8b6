import type { Device } from "@cellfleet/contract";
import Checkbox from "@mui/material/Checkbox";
import type { TFunction } from "i18next";
import { memo } from "react";
import { Link as RouterLink } from "react-router";
import { formatClock, formatMoment, formatNumber } from "../../../app/format";
import { relativeTimeText, signalTitle } from "../../../components/labels";
import { connectionHint, STATUS_COLORS } from "./DeviceLabels";
import { chipColorClass, rowClasses as cls, signalClass } from "./deviceTableStyles";

interface DeviceRowProps {
  device: Device;
  now: number;
  /** The table's translation function and language: one subscription a table, not three a row. */
  t: TFunction;
  language: string;
  isSelected: boolean;
  onSelect?: (ids: string[], isSelected: boolean) => void;
}

const CELL = cls.cell;
const WIDE_CELL = `${cls.cell} ${cls.wideOnly}`;

/**
 * One device in the table, in plain elements styled by DeviceTableRoot: it looks like the MUI
 * StatusChip, SignalLabel and RelativeTime and keeps their test ids, data attributes and hover texts.
 * Memoised: a live update replaces one row object, so only that row renders again (patchDevicePage
 * keeps the others' identity), and typing in the search box never re-renders 100 rows.
 */
export const DeviceRow = memo(function DeviceRow({
  device,
  now,
  t,
  language,
  isSelected,
  onSelect,
}: DeviceRowProps) {
  const { status, signal, time } = device;
  return (
    <tr className={cls.row} data-testid="device-row" data-ident={device.ident}>
      {onSelect ? (
        <td className={`${cls.cell} ${cls.checkboxCell}`}>
          <Checkbox
            size="small"
            checked={isSelected}
            onChange={(event) => onSelect([device._id], event.target.checked)}
            slotProps={{ input: { "aria-label": device.ident } }}
          />
        </td>
      ) : null}
      <td className={CELL}>
        <RouterLink className={cls.ident} to={`/device/${device._id}`}>
          {device.ident}
        </RouterLink>
      </td>
      <td className={`${WIDE_CELL} ${cls.description}`}>{device.description}</td>
      <td className={WIDE_CELL}>{device.board.model ?? "—"}</td>
      <td className={`${WIDE_CELL} ${cls.clipped}`} title={device.firmware ?? undefined}>
        {device.firmware ?? "—"}
      </td>
      <td className={CELL}>
        <div className={cls.statusStack}>
          <span
            className={`${cls.chip} ${chipColorClass(STATUS_COLORS[status])}`}
            data-testid="status-chip"
            data-status={status}
          >
            <span className={cls.chipLabel}>{t(`fleet.status.${status}`)}</span>
          </span>
          {/* Status is about contact (spec §4): an online router whose uplink is down says so too. */}
          {device.wan_up === false ? (
            <span
              className={`${cls.chip} ${chipColorClass("error")}`}
              data-testid="wan-down"
              title={t("fleet.wanDown.hint")}
            >
              <span className={cls.chipLabel}>{t("fleet.wanDown.label")}</span>
            </span>
          ) : null}
          {/* What the gateway knows now (ADR 032): a router killed a minute ago is still online by its
              status, so a lost connection shows beside it; a connected router that has gone quiet too. */}
          {device.connected === false || (device.connected === true && status !== "online") ? (
            <span
              className={`${cls.chip} ${cls.outlined}`}
              data-testid="connection"
              data-connected={device.connected ? "connected" : "disconnected"}
              title={connectionHint(t, device, now, language)}
            >
              <span className={`${cls.dot} ${device.connected ? cls.dotOn : cls.dotOff}`} />
              <span className={cls.chipLabel}>
                {t(device.connected ? "fleet.connection.connected" : "fleet.connection.disconnected")}
              </span>
            </span>
          ) : null}
        </div>
      </td>
      <td className={CELL}>
        <span className={`${signalClass(signal.quality)} ${cls.nowrap}`} title={signalTitle(signal.csq)}>
          {t(`fleet.signal.${signal.quality}`)}
        </span>
      </td>
      <td className={CELL}>
        <div className={cls.tags}>
          {device.tags.map((tag) => (
            <span key={tag} className={`${cls.chip} ${cls.outlined}`}>
              <span className={cls.chipLabel}>{tag}</span>
            </span>
          ))}
        </div>
      </td>
      <td className={CELL} data-testid="device-events">
        {device.events > 0 ? (
          <span className={`${cls.chip} ${chipColorClass("warning")}`}>
            <span className={cls.chipLabel}>{formatNumber(device.events, language)}</span>
          </span>
        ) : (
          0
        )}
      </td>
      <td className={CELL}>
        {time === null ? (
          t("fleet.time.never")
        ) : (
          <span className={cls.nowrap} title={formatMoment(time, language)}>
            {relativeTimeText(t, time, now)}
            <span className={cls.clock} data-testid="time-clock">
              {formatClock(time, now, language)}
            </span>
          </span>
        )}
      </td>
    </tr>
  );
});
