import { z } from "zod";
import { PAGE_SIZE_OPTIONS } from "./constants";
import { DeviceFileTypeSchema } from "./files";
import { DEVICE_SORT_FIELDS, DEVICE_STATUSES, SIGNAL_QUALITIES } from "./lists";
import { COLLECT_TYPES } from "./protocol/topics";
import { DeviceStatusSchema } from "./statusSchemas";
import { TEXT_MAX_LENGTH } from "./validators/text";
import { DeviceIdentSchema, DeviceKeySchema, SearchSchema, TagSchema } from "./validators/textSchemas";

// Devices as the HTTP API and the realtime socket send them (spec sections 3 and 7), and every
// request body of the device routes. Errors answer `{ code, message }` (errors.ts).

/** A device (router) as the list, its page and the realtime socket show it. Never carries the AES key. */
export const DeviceSchema = z.object({
  _id: z.string(),
  ident: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  board: z.object({ model: z.string().nullable() }),
  /** Firmware version the router last reported; null before its first board report. */
  firmware: z.string().nullable(),
  serial: z.string().nullable(),
  /** Last contact, ms since the epoch; null when it never reported. */
  time: z.number().nullable(),
  /** Computed when read from `time` and the domain's thresholds, so it is never stale. */
  status: DeviceStatusSchema,
  /**
   * Its MQTT connection is open now (true) or closed (false: keep-alive lost, last will, clean
   * disconnect), as the gateway saw it; null when not known: behind an external broker, or not
   * connected since the gateway began to tell (ADR 032). Beside the status, not instead of it.
   */
  connected: z.boolean().nullable(),
  /** When `connected` last changed, ms since the epoch; null with it. */
  connection_time: z.number().nullable(),
  /** The device's events the signed-in user has not read (each user's own count, ADR 025). */
  events: z.number().int(),
  /** The main modem's signal: CSQ 0..31 (99 or null unknown) and its quality label. */
  signal: z.object({ csq: z.number().int().nullable(), quality: z.enum(SIGNAL_QUALITIES) }),
  /** The main modem's network mode (5G, LTE, 3G, 2G, unknown); null before its first modem report. */
  network_mode: z.string().nullable(),
  /** WAN in the last modems report: true when a modem is online, false when all are offline; null before one. */
  wan_up: z.boolean().nullable(),
  has_backups: z.boolean(),
  has_journals: z.boolean(),
  /** Whether an AES key is set; the key itself never leaves the server. */
  has_key: z.boolean(),
  /** Created, ms since the epoch. */
  create_time: z.number(),
  /** Where the router is (WGS 84 degrees) and who said so: an admin's pin or its GPS (ADR 045); null when unknown. */
  position: z
    .object({ latitude: z.number(), longitude: z.number(), source: z.enum(["admin", "gps"]) })
    .nullable(),
  meta: z.record(z.string(), z.unknown()),
});
/** A device. */
export type Device = z.infer<typeof DeviceSchema>;

// --- Create, edit, bulk, delete ---

/** A position an admin sets: WGS 84 degrees. */
export const DevicePositionSchema = z.object({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
});

const DescriptionSchema = z.string().trim().max(TEXT_MAX_LENGTH, "textTooLong");
/** Tags of a device: each 3..25 characters of letters, digits, `_` and `-`; at most 50, duplicates merged. */
export const DeviceTagsSchema = z
  .array(TagSchema, "TAGS_MUST_BE_ARRAY")
  .max(50)
  .transform((tags) => [...new Set(tags)]);

/**
 * POST /api/devices/new → 200 {@link Device} (admins only). Errors: BAD_IDENT (ident of spec section
 * 5), TAGS_MUST_BE_ARRAY (tags not an array of valid tags), BAD_REQUEST (description or key; the
 * key must be empty or 64 hex), DEVICE_ALREADY_EXIST (409), DEVICE_COUNT_LIMITED (the domain's
 * device limit), DEVICE_CREATE_ERROR. The key is stored uppercase.
 */
export const CreateDeviceSchema = z.object({
  ident: DeviceIdentSchema,
  description: DescriptionSchema.default(""),
  tags: DeviceTagsSchema.default([]),
  aes_key: DeviceKeySchema.default(""),
});
/** Body of POST /api/devices/new. */
export type CreateDevice = z.input<typeof CreateDeviceSchema>;

/**
 * POST /api/device/{dev_id}/edit → 200 {@link Device} (admins and assistants; operators get
 * PERMISSION_DENIED). Only the fields given change; `aes_key: ""` removes the key.
 */
export const UpdateDeviceSchema = z.object({
  description: DescriptionSchema.optional(),
  tags: DeviceTagsSchema.optional(),
  aes_key: DeviceKeySchema.optional(),
  /** Pins the router's map position (source `admin`, kept over its GPS); null removes the pin (ADR 045). */
  position: DevicePositionSchema.nullable().optional(),
});
/** Body of POST /api/device/{dev_id}/edit. */
export type UpdateDevice = z.input<typeof UpdateDeviceSchema>;

/** Most lines of one bulk creation. */
export const BULK_DEVICES_MAX_LINES = 5000;

/**
 * POST /api/devices/bulk (admins only): a pasted list or CSV text, one device a line:
 * `ident[,description[,tags separated by ;[,key]]]` (extra commas belong to the description). Blank
 * lines, `#` comments and a first line `ident,…` (a CSV header) are skipped. Per line, not all-or-nothing:
 * every valid line is created, every other line answers its error code. The device limit is the
 * exception: when the valid new lines would pass it, nothing is created (DEVICE_COUNT_LIMITED).
 */
export const BulkCreateDevicesSchema = z.object({ text: z.string().max(1_000_000) });
/** Body of POST /api/devices/bulk. */
export type BulkCreateDevices = z.infer<typeof BulkCreateDevicesSchema>;

/** One line's outcome of a bulk creation: `created` with the device id, or an error code. */
export const BulkLineResultSchema = z.object({
  /** 1-based line number in the text. */
  line: z.number().int(),
  ident: z.string(),
  /** "created", or the error code: BAD_IDENT, TAGS_MUST_BE_ARRAY, BAD_REQUEST, DEVICE_ALREADY_EXIST. */
  result: z.string(),
  /** The validation key behind a BAD_* code (identChars, tagTooShort, keyInvalid …), when there is one. */
  reason: z.string().optional(),
  _id: z.string().optional(),
});
/** One line's outcome of a bulk creation. */
export type BulkLineResult = z.infer<typeof BulkLineResultSchema>;

/** Answer of POST /api/devices/bulk. */
export const BulkCreateDevicesResultSchema = z.object({
  created: z.number().int(),
  failed: z.number().int(),
  results: z.array(BulkLineResultSchema),
});
/** Answer of POST /api/devices/bulk. */
export type BulkCreateDevicesResult = z.infer<typeof BulkCreateDevicesResultSchema>;

/** Actions of POST /api/devices/multiple/. */
export const DEVICE_MULTIPLE_ACTIONS = ["add_tags", "remove_tags", "delete"] as const;

/**
 * POST /api/devices/multiple/ → 200 {@link DevicesMultipleResult}. add_tags / remove_tags need
 * `tags` (admins and assistants); delete is for admins only. Every target must be a device of the
 * caller's domain, otherwise DEVICE_NOT_FOUND and nothing changes. Empty targets: TARGETS_NOT_SPECIFIED.
 */
export const DevicesMultipleSchema = z.object({
  targets: z.array(z.string().min(1)).max(10_000),
  action: z.enum(DEVICE_MULTIPLE_ACTIONS),
  tags: DeviceTagsSchema.optional(),
});
/** Body of POST /api/devices/multiple/. */
export type DevicesMultiple = z.input<typeof DevicesMultipleSchema>;
/** Answer of POST /api/devices/multiple/: how many devices changed. */
export const DevicesMultipleResultSchema = z.object({ affected: z.number().int() });
/** Answer of POST /api/devices/multiple/. */
export type DevicesMultipleResult = z.infer<typeof DevicesMultipleResultSchema>;

/** Answer of DELETE /api/device/{dev_id} (admins only). */
export const DeleteDeviceResultSchema = z.object({ _id: z.string() });

// --- The list ---

const stringFilter = z.array(z.string().max(TEXT_MAX_LENGTH)).max(100).optional();

/**
 * Body of POST /api/devices/ and POST /api/devices/export. Every filter narrows (AND); within one
 * array filter any value matches (OR), except `tags`, where the device must carry all of them.
 * A value `""` in model / version / network_mode matches devices that reported none.
 */
export const DeviceListRequestSchema = z.object({
  /** Case-insensitive substring of ident, description, model, serial or a tag (spec section 5 characters). */
  search: SearchSchema.optional(),
  tags: z.array(z.string().max(TEXT_MAX_LENGTH)).max(20).optional(),
  /** `with`: devices with unread events; `without`: none unread. */
  events: z.enum(["with", "without"]).optional(),
  status: z.array(z.enum(DEVICE_STATUSES)).optional(),
  model: stringFilter,
  /** Firmware versions. */
  version: stringFilter,
  network_mode: stringFilter,
  /** Signal quality buckets of `signalQualityFromCsq`. */
  signal: z.array(z.enum(SIGNAL_QUALITIES)).optional(),
  backups: z.boolean().optional(),
  journals: z.boolean().optional(),
  /** Devices holding at least one file of any of these types (backups, journals, report files). */
  file_type: z.array(DeviceFileTypeSchema).max(10).optional(),
  sort: z
    .object({ field: z.enum(DEVICE_SORT_FIELDS), order: z.enum(["asc", "desc"]).default("asc") })
    .optional(),
  /** 0-based page. */
  page: z.number().int().min(0).max(1_000_000).default(0),
  size: z
    .union(
      PAGE_SIZE_OPTIONS.map((size) => z.literal(size)) as [
        z.ZodLiteral<10>,
        z.ZodLiteral<50>,
        z.ZodLiteral<100>,
      ],
    )
    .default(10),
  /** Whether to add the facets line; computing them costs a pass over the domain's devices. */
  facets: z.boolean().optional(),
});
/** Body of POST /api/devices/. */
export type DeviceListRequest = z.input<typeof DeviceListRequestSchema>;
/** Parsed body of POST /api/devices/ (defaults applied). */
export type DeviceListQuery = z.output<typeof DeviceListRequestSchema>;

/** First NDJSON line of POST /api/devices/: how many devices match, and the page answered. */
export const DeviceListHeaderSchema = z.object({
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
});
/** First line of the device list answer. */
export type DeviceListHeader = z.infer<typeof DeviceListHeaderSchema>;

/** A value of an open-ended facet and how many devices have it; `value: ""` means none reported. */
export const FacetCountSchema = z.object({ value: z.string(), count: z.number().int() });
/** A facet value and its count. */
export type FacetCount = z.infer<typeof FacetCountSchema>;

/** Most values answered per open-ended facet (model, version, network mode, tags), commonest first. */
export const FACET_TOP_N = 20;

/**
 * Facet counts of spec section 2 over every device matching the request's filters (paging aside).
 * `backups` and `journals` count devices with at least one good copy; `file_type` counts, per type
 * of device file, the devices holding at least one file of it.
 */
export const DeviceFacetsSchema = z.object({
  status: z.record(z.enum(DEVICE_STATUSES), z.number().int()),
  signal: z.record(z.enum(SIGNAL_QUALITIES), z.number().int()),
  network_mode: z.array(FacetCountSchema),
  model: z.array(FacetCountSchema),
  version: z.array(FacetCountSchema),
  backups: z.object({ with: z.number().int(), without: z.number().int() }),
  journals: z.object({ with: z.number().int(), without: z.number().int() }),
  tags: z.array(FacetCountSchema),
  events: z.object({ with: z.number().int(), without: z.number().int() }),
  file_type: z.array(FacetCountSchema),
});
/** Facet counts of the device list. */
export type DeviceFacets = z.infer<typeof DeviceFacetsSchema>;

/** Last NDJSON line of POST /api/devices/ when `facets: true` was asked. */
export const DeviceFacetsLineSchema = z.object({ facets: DeviceFacetsSchema });

/**
 * One NDJSON line of POST /api/devices/ (content type application/x-ndjson): the answer is
 * `{"total","page","size"}` first, then one {@link Device} per line in order, then, when asked,
 * `{"facets":{…}}`. A line with `code` instead is an error met after streaming began.
 */
export const DeviceListLineSchema = z.union([
  DeviceListHeaderSchema,
  DeviceSchema,
  DeviceFacetsLineSchema,
  z.object({ code: z.string(), message: z.string() }),
]);
/** One line of POST /api/devices/. */
export type DeviceListLine = z.infer<typeof DeviceListLineSchema>;

/** POST /api/tags/ → `{ tag: frequency }` for the caller's domain, most frequent first. */
export const TagFrequencySchema = z.record(z.string(), z.number().int());
/** Tag to frequency map. */
export type TagFrequency = z.infer<typeof TagFrequencySchema>;

/** POST /api/dashboard/ → device totals by status in the caller's domain. */
export const DashboardTotalsSchema = z.object({
  pending: z.number().int(),
  online: z.number().int(),
  warning: z.number().int(),
  critical: z.number().int(),
  total: z.number().int(),
});
/** Device totals by status. */
export type DashboardTotals = z.infer<typeof DashboardTotalsSchema>;

// --- One device ---

/** One collect type's latest state on the device page; never reported: create_time and data null. */
export const DeviceCollectSchema = z.object({
  type: z.enum(COLLECT_TYPES),
  /** When it was received, ms since the epoch. */
  create_time: z.number().nullable(),
  /** The payload as the router sent it (protocol CollectSchemas[type]). */
  data: z.unknown().nullable(),
  /** Younger than the domain's warning minutes (contract isCollectFresh); false when never reported. */
  is_fresh: z.boolean(),
});
/** One collect type's latest state. */
export type DeviceCollect = z.infer<typeof DeviceCollectSchema>;

/** POST /api/device/{dev_id} → the device and one entry per collect type, in COLLECT_TYPES order. */
export const DeviceDetailSchema = z.object({
  device: DeviceSchema,
  collects: z.array(DeviceCollectSchema),
});
/** The device page's data. */
export type DeviceDetail = z.infer<typeof DeviceDetailSchema>;

/**
 * A device as the realtime socket pushes it to every browser of the domain: no `events`, since
 * that count is each user's own (ADR 025); a browser keeps the count it read.
 */
export const DevicePushSchema = DeviceSchema.omit({ events: true });
/** A pushed device. */
export type DevicePush = z.infer<typeof DevicePushSchema>;

/**
 * A pushed device or, to a socket that was sent the whole row since it began viewing the device,
 * only the fields that changed (a field that went away is null): a browser merges it over its row
 * (ADR 035).
 */
export const DevicePushChangeSchema = DevicePushSchema.partial().required({ _id: true });
/** A pushed device, whole or its changed fields. */
export type DevicePushChange = z.infer<typeof DevicePushChangeSchema>;

/** The realtime socket message about devices, published on the device's domain only. */
export const DevicesSocketMessageSchema = z.object({
  type: z.literal("devices"),
  action: z.enum(["put", "update", "delete"]),
  content: z.array(DevicePushChangeSchema),
  /** To a socket viewing a list: the domain's devices changed, so its status totals may have. */
  totals: z.literal(true).optional(),
});
/** The realtime devices message. */
export type DevicesSocketMessage = z.infer<typeof DevicesSocketMessageSchema>;
