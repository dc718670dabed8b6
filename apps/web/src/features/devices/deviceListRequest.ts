import {
  DEVICE_FILE_TYPES,
  DEVICE_SORT_FIELDS,
  DEVICE_STATUSES,
  type DeviceListRequest,
  type DeviceSortField,
  PAGE_SIZE_OPTIONS,
  SIGNAL_QUALITIES,
} from "@cellfleet/contract";
import type { ListState } from "../../components/list-card";

/** Facets of the device list (spec section 2) the dashboard offers as filter menus. */
export const DEVICE_FACETS = [
  "status",
  "signal",
  "network_mode",
  "model",
  "version",
  "backups",
  "journals",
  "file_type",
  "tags",
] as const;
/** One of {@link DEVICE_FACETS}. */
export type DeviceFacetName = (typeof DEVICE_FACETS)[number];

/** The storage prefix of the dashboard's list card. */
export const DASHBOARD_LIST_PREFIX = "dashboard.devices";

const pick = <T extends string>(values: string[] | undefined, allowed: readonly T[]): T[] =>
  (values ?? []).filter((value): value is T => (allowed as readonly string[]).includes(value));

/** "with" alone → true, "without" alone → false; both or neither → no filter. */
function presence(values: string[] | undefined): boolean | undefined {
  const set = new Set(values ?? []);
  if (set.has("with") === set.has("without")) return undefined;
  return set.has("with");
}

const nonEmpty = <T>(values: T[]): T[] | undefined => (values.length ? values : undefined);

/** Whether a sort field is one the server sorts the device list by. */
export function isDeviceSortField(field: string): field is DeviceSortField {
  return (DEVICE_SORT_FIELDS as readonly string[]).includes(field);
}

/**
 * The body of POST /api/devices/ for a list card's state. Tags come from the tags input and the
 * tags facet together (a device must carry all of them); facets are always asked for.
 */
export function toDeviceListRequest(state: ListState): DeviceListRequest {
  const size = PAGE_SIZE_OPTIONS.find((option) => option === state.pageSize) ?? PAGE_SIZE_OPTIONS[0];
  const tags = [...new Set([...state.tags, ...(state.facets.tags ?? [])])];
  const sort =
    state.sort && isDeviceSortField(state.sort.field)
      ? { field: state.sort.field, order: state.sort.direction }
      : undefined;
  const request: DeviceListRequest = {
    search: state.search.trim() || undefined,
    tags: nonEmpty(tags),
    events: state.events === "all" ? undefined : state.events,
    status: nonEmpty(pick(state.facets.status, DEVICE_STATUSES)),
    signal: nonEmpty(pick(state.facets.signal, SIGNAL_QUALITIES)),
    network_mode: nonEmpty(state.facets.network_mode ?? []),
    model: nonEmpty(state.facets.model ?? []),
    version: nonEmpty(state.facets.version ?? []),
    backups: presence(state.facets.backups),
    journals: presence(state.facets.journals),
    file_type: nonEmpty(pick(state.facets.file_type, DEVICE_FILE_TYPES)),
    sort,
    page: state.page,
    size,
    facets: true,
  };
  // Undefined members would still be part of the query key; drop them so equal filters share a cache entry.
  return Object.fromEntries(
    Object.entries(request).filter(([, value]) => value !== undefined),
  ) as DeviceListRequest;
}
