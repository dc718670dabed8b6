import {
  DEVICE_STATUSES,
  type DeviceFileType,
  type DeviceListQuery,
  type DeviceStatus,
  type SignalQuality,
  type StatusThreshold,
  THRESHOLD_STATUSES,
} from "@cellfleet/contract";

// The device list's filters in database terms. Status and signal are rules of the contract; here
// they become ranges of plain columns, so the database filters with its indexes and nothing is
// computed per row in JavaScript.

/**
 * Last-contact times of one status: never reported, or `from <= last_contact < to` (either end
 * open), or both (pending: never reported, or late within its band).
 */
export type ContactRange =
  | { kind: "never" }
  | { kind: "between"; from: Date | null; to: Date | null; orNever?: boolean }
  | { kind: "none" };

/** A CSQ range of one signal quality (inclusive), or "unknown" (no value, or outside 0..31). */
export type CsqRange = { kind: "unknown" } | { kind: "between"; min: number; max: number };

/** What the repo filters by: the list request with status and signal already turned into ranges. */
export interface DeviceFilter {
  search?: string;
  tags?: string[];
  events?: "with" | "without";
  contact?: ContactRange[];
  model?: string[];
  version?: string[];
  network_mode?: string[];
  csq?: CsqRange[];
  backups?: boolean;
  journals?: boolean;
  /** Devices holding at least one file of any of these types. */
  file_type?: DeviceFileType[];
}

const MINUTE_MS = 60_000;

/**
 * The last-contact range of each status at `now`, mirroring computeDeviceStatus: online while
 * at most `online` minutes old, then pending up to `pending` minutes, then warning up to `warning`
 * minutes, then critical; pending also when never reported. A status whose band is empty (e.g.
 * pending not above online) answers `none`, pending `never`.
 */
export function contactRangesByStatus(
  thresholds: readonly StatusThreshold[],
  now: Date,
): Record<DeviceStatus, ContactRange> {
  const nowMs = now.getTime();
  const ranges: Record<DeviceStatus, ContactRange> = {
    pending: { kind: "never" },
    online: { kind: "none" },
    warning: { kind: "none" },
    critical: { kind: "between", from: null, to: null },
  };
  // Walk the thresholds in the order computeDeviceStatus checks them; each claims the contacts
  // newer than its limit that no earlier status claimed.
  let claimedFromMs: number | null = null;
  for (const name of THRESHOLD_STATUSES) {
    const threshold = thresholds.find((entry) => entry.name === name);
    if (!threshold) continue;
    const fromMs = nowMs - threshold.minutes * MINUTE_MS;
    const orNever = name === "pending" ? { orNever: true } : {};
    if (claimedFromMs === null) {
      ranges[name] = { kind: "between", from: new Date(fromMs), to: null, ...orNever };
      claimedFromMs = fromMs;
    } else if (fromMs < claimedFromMs) {
      ranges[name] = { kind: "between", from: new Date(fromMs), to: new Date(claimedFromMs), ...orNever };
      claimedFromMs = fromMs;
    }
  }
  if (claimedFromMs !== null) ranges.critical = { kind: "between", from: null, to: new Date(claimedFromMs) };
  return ranges;
}

/** CSQ ranges of the signal qualities, matching contract signalQualityFromCsq. */
export const CSQ_RANGES: Record<SignalQuality, CsqRange> = {
  cellEdge: { kind: "between", min: 0, max: 9 },
  midCell: { kind: "between", min: 10, max: 14 },
  normal: { kind: "between", min: 15, max: 19 },
  excellent: { kind: "between", min: 20, max: 31 },
  unknown: { kind: "unknown" },
};

/** The repo filter of a list request, at `now` under the domain's thresholds. */
export function toDeviceFilter(
  query: Omit<DeviceListQuery, "page" | "size" | "sort" | "facets">,
  ranges: Record<DeviceStatus, ContactRange>,
): DeviceFilter {
  const search = query.search?.trim();
  return {
    search: search ? search : undefined,
    tags: query.tags && query.tags.length > 0 ? [...new Set(query.tags)] : undefined,
    events: query.events,
    contact:
      query.status && query.status.length > 0 ? query.status.map((status) => ranges[status]) : undefined,
    model: nonEmpty(query.model),
    version: nonEmpty(query.version),
    network_mode: nonEmpty(query.network_mode),
    csq:
      query.signal && query.signal.length > 0
        ? query.signal.map((quality) => CSQ_RANGES[quality])
        : undefined,
    backups: query.backups,
    journals: query.journals,
    file_type: query.file_type && query.file_type.length > 0 ? [...new Set(query.file_type)] : undefined,
  };
}

function nonEmpty(values: string[] | undefined): string[] | undefined {
  return values && values.length > 0 ? values : undefined;
}

/** Self-check used by tests: the status of a contact time per the ranges equals computeDeviceStatus. */
export function statusByRanges(
  ranges: Record<DeviceStatus, ContactRange>,
  lastContact: Date | null,
): DeviceStatus | undefined {
  return DEVICE_STATUSES.find((status) => {
    const range = ranges[status];
    if (range.kind === "never") return lastContact === null;
    if (range.kind === "none") return false;
    if (lastContact === null) return range.orNever === true;
    const ms = lastContact.getTime();
    return (
      (range.from === null || ms >= range.from.getTime()) && (range.to === null || ms < range.to.getTime())
    );
  });
}
