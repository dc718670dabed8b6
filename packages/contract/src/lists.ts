// The contract's value lists (statuses, sort fields, command and file types) and a few plain values,
// without zod: the web's signed-in start imports them, and a module with zod schemas would bring
// zod along (ADR 026). The schemas built from them live beside their entities.

/** Device statuses in display order (spec section 4). */
export const DEVICE_STATUSES = ["critical", "warning", "pending", "online"] as const;
/** A device's status. */
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

/** Signal quality labels (spec section 4), worst first, plus "unknown". */
export const SIGNAL_QUALITIES = ["cellEdge", "midCell", "normal", "excellent", "unknown"] as const;
/** A signal quality label. */
export type SignalQuality = (typeof SIGNAL_QUALITIES)[number];

/** Fields the device list sorts by; `time` is the last contact (never-reported devices last). */
export const DEVICE_SORT_FIELDS = [
  "ident",
  "description",
  "model",
  "firmware",
  "time",
  "events",
  "signal",
  "create_time",
] as const;
/** A sort field of the device list. */
export type DeviceSortField = (typeof DEVICE_SORT_FIELDS)[number];

/** File types routers upload: backups, journals and a command's report files. */
export const DEVICE_FILE_TYPES = ["backup", "journal", "report"] as const;
/** A device file's type. */
export type DeviceFileType = (typeof DEVICE_FILE_TYPES)[number];

/** Command types of spec section 3, as they travel to a device. */
export const COMMAND_TYPES = [
  "shell",
  "reboot",
  "factory_reset",
  "download",
  "pkg_install",
  "fw_update",
  "journal",
  "backup",
  "restore",
] as const;
/** One of {@link COMMAND_TYPES}. */
export type CommandType = (typeof COMMAND_TYPES)[number];

/** The command type a settings template is sent under (it travels to the router as shell). */
export const SETTINGS_COMMAND_TYPE = "settings";

/** Close codes the server uses on /api/ws/. */
export const SOCKET_CLOSE = { sessionEnded: 4001, tokenRejected: 4002, helloTimeout: 4003 } as const;

/** Event levels; the console shows `alert` as info (spec section 3). */
export const EVENT_LEVELS = ["info", "warning", "error", "alert"] as const;
/** One of {@link EVENT_LEVELS}. */
export type EventLevel = (typeof EVENT_LEVELS)[number];
