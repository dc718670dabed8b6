import { z } from "zod";
import {
  byteCount,
  envelopeShape,
  ipAddress,
  ipAddressOrCidr,
  LINK_STATES,
  macAddress,
  percent,
  REPORT_TEXT_MAX_LENGTH,
  reportName,
  reportText,
  seconds,
} from "./fields";
import type { CollectType } from "./topics";

// Payloads of `collect/{type}`: each is a full snapshot of that part of the router's state, so the
// latest one per type replaces the previous one. Units are in the field docs and in docs/device-protocol.md.

/** `collect/board`: the router itself. */
export const BoardCollectSchema = z.object({
  ...envelopeShape,
  /** Maker, e.g. "Teltonika"; optional because some agents cannot tell. */
  vendor: reportText.optional(),
  model: reportText,
  firmware: reportText,
  serial: reportText,
  hostname: z.string().min(1).max(253),
  /** Seconds since the router booted. */
  uptime: seconds,
  /** CPU load, percent over the last minute. */
  cpu_load: percent,
  /** Total and free RAM, bytes. */
  memory_total: byteCount,
  memory_free: byteCount,
  /** Board temperature, °C; null when the board has no sensor. */
  temperature: z.number().min(-60).max(150).nullable(),
});
/** A `collect/board` payload. */
export type BoardCollect = z.infer<typeof BoardCollectSchema>;

/** What an interface is for: WAN (uplink), LAN, or anything else (loopback, bridge member, VPN). */
export const INTERFACE_KINDS = ["wan", "lan", "other"] as const;

/** One network interface in `collect/interfaces`. */
export const InterfaceReportSchema = z.object({
  name: reportName,
  kind: z.enum(INTERFACE_KINDS),
  state: z.enum(LINK_STATES),
  /** IPv4 address, optionally with its prefix length; null when it has none. */
  ipv4: z.union([z.ipv4(), z.cidrv4()]).nullable(),
  mac: macAddress.nullable(),
  /** Bytes received and sent since the counters were last reset (usually boot). */
  rx: byteCount,
  tx: byteCount,
});
/** One interface of a `collect/interfaces` payload. */
export type InterfaceReport = z.infer<typeof InterfaceReportSchema>;

/** `collect/interfaces`: every interface of the router. */
export const InterfacesCollectSchema = z.object({
  ...envelopeShape,
  interfaces: z.array(InterfaceReportSchema).max(128),
});
/** A `collect/interfaces` payload. */
export type InterfacesCollect = z.infer<typeof InterfacesCollectSchema>;

/** One route in `collect/routing`. */
export const RouteReportSchema = z.object({
  /** Destination network (`0.0.0.0/0`, `10.8.0.0/24`) or host address. */
  destination: ipAddressOrCidr,
  /** Next hop; null for a directly connected network. */
  gateway: ipAddress.nullable(),
  interface: reportName,
  metric: z.int().min(0).max(4_294_967_295),
  /** Whether this is the route the router uses by default (the active default route). */
  is_default: z.boolean(),
});
/** One route of a `collect/routing` payload. */
export type RouteReport = z.infer<typeof RouteReportSchema>;

/** `collect/routing`: the main routing table. */
export const RoutingCollectSchema = z.object({
  ...envelopeShape,
  routes: z
    .array(RouteReportSchema)
    .max(1024)
    .refine((routes) => routes.filter((route) => route.is_default).length <= 1, {
      message: "at most one route is the default",
    }),
});
/** A `collect/routing` payload. */
export type RoutingCollect = z.infer<typeof RoutingCollectSchema>;

/** Network modes a modem reports; agents map their vendor's strings (WCDMA → 3G, GSM/EDGE → 2G). */
export const NETWORK_MODES = ["5G", "LTE", "3G", "2G", "unknown"] as const;
/** One of {@link NETWORK_MODES}. */
export type NetworkMode = (typeof NETWORK_MODES)[number];

/** Modem connection state: 1 Online, 0 Offline (spec section 4). */
export const MODEM_STATES = [0, 1] as const;

/** Radio measurement bounds accepted in `collect/modems` (3GPP reporting ranges, rounded out). */
export const RADIO_BOUNDS = {
  /** Reference signal received quality, dB. */
  rsrq: { min: -40, max: 20 },
  /** Received signal strength indicator, dBm. */
  rssi: { min: -130, max: 0 },
  /** Reference signal received power, dBm. */
  rsrp: { min: -160, max: -30 },
  /** Signal to interference plus noise ratio, dB. */
  sinr: { min: -30, max: 50 },
  /** Signal quality 0-31; 99 means not known (3GPP TS 27.007 AT+CSQ). */
  csq: { min: 0, max: 31, unknown: 99 },
} as const;

const radio = (bounds: { min: number; max: number }) => z.number().min(bounds.min).max(bounds.max).nullable();

/** One cellular modem in `collect/modems`: every field of the WAN modems table (spec section 2). */
export const ModemReportSchema = z.object({
  /** The router's own id of the modem (e.g. "1-1", "lte1"); stable across reports. */
  id: reportName,
  /** 1 Online (data connection up), 0 Offline. */
  state: z.literal(MODEM_STATES),
  /** Main (true) or backup (false) modem; at most one modem is main. */
  primary: z.boolean(),
  mode: z.enum(NETWORK_MODES),
  /** Active SIM slot, counted from 1. */
  sim: z.int().min(1).max(8),
  operator: reportText.nullable(),
  /** Address of the cellular data connection; null when offline. */
  ip: ipAddress.nullable(),
  /** Modem module, e.g. "Quectel EC25-E". */
  module: reportText,
  /** Band in use, e.g. "B3" or "LTE B20"; null when not registered. */
  band: z.string().min(1).max(32).nullable(),
  /** Signal level the router shows, percent; null when not known. */
  signal: z.int().min(0).max(100).nullable(),
  imei: z
    .string()
    .regex(/^\d{14,16}$/)
    .nullable(),
  /** SIM card number; null when no SIM is inserted. */
  iccid: z
    .string()
    .regex(/^\d{18,22}[Ff]?$/)
    .nullable(),
  imsi: z
    .string()
    .regex(/^\d{6,15}$/)
    .nullable(),
  /** Bytes received and sent over this modem's data connection. */
  rx: byteCount,
  tx: byteCount,
  /** Seconds the data connection has been up; 0 when offline. */
  uptime: seconds,
  /** LTE/5G measurements are null in 2G/3G modes, where they do not exist. */
  rsrq: radio(RADIO_BOUNDS.rsrq),
  rssi: radio(RADIO_BOUNDS.rssi),
  rsrp: radio(RADIO_BOUNDS.rsrp),
  sinr: radio(RADIO_BOUNDS.sinr),
  csq: z
    .int()
    .refine((value) => (value >= RADIO_BOUNDS.csq.min && value <= RADIO_BOUNDS.csq.max) || value === 99, {
      message: "csq is 0-31 or 99",
    })
    .nullable(),
  /**
   * Registered on a visited network (AT+CREG status 5); absent from agents that do not tell, which
   * the console takes as not roaming. A rollout holds a roaming router's update (ADR 021).
   */
  roaming: z.boolean().optional(),
});
/** One modem of a `collect/modems` payload. */
export type ModemReport = z.infer<typeof ModemReportSchema>;

/** `collect/modems`: every cellular modem of the router (zero is allowed: all modems failed). */
export const ModemsCollectSchema = z.object({
  ...envelopeShape,
  modems: z
    .array(ModemReportSchema)
    .max(8)
    .refine((modems) => modems.filter((modem) => modem.primary).length <= 1, {
      message: "at most one modem is primary",
    })
    .refine((modems) => new Set(modems.map((modem) => modem.id)).size === modems.length, {
      message: "modem ids are unique",
    }),
});
/** A `collect/modems` payload. */
export type ModemsCollect = z.infer<typeof ModemsCollectSchema>;

/** One Ethernet port in `collect/ethernets`. */
export const EthernetPortReportSchema = z.object({
  name: reportName,
  link: z.enum(LINK_STATES),
  /** Negotiated speed, Mbit/s; null when the link is down. */
  speed: z.int().min(0).max(400_000).nullable(),
  duplex: z.enum(["full", "half"]).nullable(),
});
/** One port of a `collect/ethernets` payload. */
export type EthernetPortReport = z.infer<typeof EthernetPortReportSchema>;

/** `collect/ethernets`: every physical Ethernet port. */
export const EthernetsCollectSchema = z.object({
  ...envelopeShape,
  ports: z.array(EthernetPortReportSchema).max(64),
});
/** A `collect/ethernets` payload. */
export type EthernetsCollect = z.infer<typeof EthernetsCollectSchema>;

/** Tunnel technologies; anything else is reported as "other". */
export const TUNNEL_KINDS = [
  "openvpn",
  "wireguard",
  "ipsec",
  "gre",
  "l2tp",
  "pptp",
  "zerotier",
  "other",
] as const;

/** State of the service behind a tunnel: Running or Stop (spec section 4). */
export const SERVICE_STATES = ["running", "stop"] as const;

/** One tunnel in `collect/tunnels`. */
export const TunnelReportSchema = z.object({
  name: reportName,
  kind: z.enum(TUNNEL_KINDS),
  state: z.enum(LINK_STATES),
  /** Local and remote endpoint: an address or host name, null when not known. */
  local: z.string().min(1).max(REPORT_TEXT_MAX_LENGTH).nullable(),
  remote: z.string().min(1).max(REPORT_TEXT_MAX_LENGTH).nullable(),
  rx: byteCount,
  tx: byteCount,
  service: z.enum(SERVICE_STATES),
});
/** One tunnel of a `collect/tunnels` payload. */
export type TunnelReport = z.infer<typeof TunnelReportSchema>;

/** `collect/tunnels`: every configured tunnel. */
export const TunnelsCollectSchema = z.object({
  ...envelopeShape,
  tunnels: z.array(TunnelReportSchema).max(64),
});
/** A `collect/tunnels` payload. */
export type TunnelsCollect = z.infer<typeof TunnelsCollectSchema>;

/**
 * `collect/gps` (optional: only routers with a GNSS receiver send it): the router's latest fix, WGS 84
 * degrees. The server keeps it as the router's position unless an admin pinned one (ADR 045).
 */
export const GpsCollectSchema = z.object({
  ...envelopeShape,
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  /** Horizontal accuracy, metres, when the receiver tells it. */
  accuracy: z.number().min(0).max(1_000_000).optional(),
  /** When the fix was taken, ms since the Unix epoch UTC, when it differs from `ts`. */
  fix_time: z.number().int().min(0).optional(),
});
/** A `collect/gps` payload. */
export type GpsCollect = z.infer<typeof GpsCollectSchema>;

/** The schema of each collect type. */
export const CollectSchemas = {
  board: BoardCollectSchema,
  interfaces: InterfacesCollectSchema,
  routing: RoutingCollectSchema,
  modems: ModemsCollectSchema,
  ethernets: EthernetsCollectSchema,
  tunnels: TunnelsCollectSchema,
  gps: GpsCollectSchema,
} as const satisfies Record<CollectType, z.ZodType>;

/** The payload type of each collect type. */
export type CollectMessageMap = { [T in CollectType]: z.infer<(typeof CollectSchemas)[T]> };
/** Any collect payload. */
export type CollectMessage = CollectMessageMap[CollectType];
