import type {
  BoardCollect,
  EthernetsCollect,
  GpsCollect,
  InterfacesCollect,
  ModemsCollect,
  RoutingCollect,
  TunnelsCollect,
} from "./collect";
import type { CommandMessage, CommandStatusMessage, DeviceEventMessage, HelloMessage } from "./messages";
import type { NoticeMessage } from "./notice";
import type { TunnelOpenMessage } from "./tunnel";

// One realistic message of each kind, as a Teltonika RUT955 with one dual-SIM modem would send them.
// docs/device-protocol.md shows the same messages; tests and fixtures of other packages start from them.

const ts = 1_767_225_600_000; // 2026-01-01T00:00:00Z

/** Example `hello`. */
export const EXAMPLE_HELLO: HelloMessage = {
  v: 1,
  seq: 1001,
  ts,
  vendor: "Teltonika",
  model: "RUT955",
  firmware: "RUT9_R_00.07.06.10",
  serial: "1109876543",
  uptime: 86_400,
  agent_version: "1.0.0",
  modem_count: 1,
};

/** Example `collect/board`. */
export const EXAMPLE_BOARD: BoardCollect = {
  v: 1,
  seq: 1002,
  ts,
  vendor: "Teltonika",
  model: "RUT955",
  firmware: "RUT9_R_00.07.06.10",
  serial: "1109876543",
  hostname: "RUT955",
  uptime: 86_400,
  cpu_load: 12.5,
  memory_total: 134_217_728,
  memory_free: 61_865_984,
  temperature: 41.2,
};

/** Example `collect/interfaces`. */
export const EXAMPLE_INTERFACES: InterfacesCollect = {
  v: 1,
  seq: 1003,
  ts,
  interfaces: [
    {
      name: "mob1s1a1",
      kind: "wan",
      state: "up",
      ipv4: "10.174.22.91/30",
      mac: null,
      rx: 1_532_918_112,
      tx: 204_117_345,
    },
    {
      name: "br-lan",
      kind: "lan",
      state: "up",
      ipv4: "192.168.1.1/24",
      mac: "00:1E:42:2A:3B:4C",
      rx: 98_121_554,
      tx: 1_401_220_987,
    },
    {
      name: "tun0",
      kind: "other",
      state: "up",
      ipv4: "10.8.0.6/24",
      mac: null,
      rx: 5_120_334,
      tx: 3_221_871,
    },
  ],
};

/** Example `collect/routing`. */
export const EXAMPLE_ROUTING: RoutingCollect = {
  v: 1,
  seq: 1004,
  ts,
  routes: [
    { destination: "0.0.0.0/0", gateway: "10.174.22.89", interface: "mob1s1a1", metric: 1, is_default: true },
    { destination: "192.168.1.0/24", gateway: null, interface: "br-lan", metric: 0, is_default: false },
    { destination: "10.8.0.0/24", gateway: "10.8.0.5", interface: "tun0", metric: 0, is_default: false },
  ],
};

/** Example `collect/modems`. */
export const EXAMPLE_MODEMS: ModemsCollect = {
  v: 1,
  seq: 1005,
  ts,
  modems: [
    {
      id: "1-1",
      state: 1,
      primary: true,
      mode: "LTE",
      sim: 1,
      operator: "MegaFon",
      ip: "10.174.22.91",
      module: "Quectel EC25-E",
      band: "B3",
      signal: 72,
      imei: "866758041234567",
      iccid: "8970102123456789012",
      imsi: "250021234567890",
      rx: 1_532_918_112,
      tx: 204_117_345,
      uptime: 80_112,
      rsrq: -9.5,
      rssi: -67,
      rsrp: -94,
      sinr: 13.2,
      csq: 23,
    },
  ],
};

/** Example `collect/ethernets`. */
export const EXAMPLE_ETHERNETS: EthernetsCollect = {
  v: 1,
  seq: 1006,
  ts,
  ports: [
    { name: "WAN", link: "down", speed: null, duplex: null },
    { name: "LAN1", link: "up", speed: 100, duplex: "full" },
    { name: "LAN2", link: "up", speed: 1000, duplex: "full" },
    { name: "LAN3", link: "down", speed: null, duplex: null },
  ],
};

/** Example `collect/tunnels`. */
export const EXAMPLE_TUNNELS: TunnelsCollect = {
  v: 1,
  seq: 1007,
  ts,
  tunnels: [
    {
      name: "office",
      kind: "openvpn",
      state: "up",
      local: "10.8.0.6",
      remote: "vpn.example.com",
      rx: 5_120_334,
      tx: 3_221_871,
      service: "running",
    },
    {
      name: "backup-ipsec",
      kind: "ipsec",
      state: "down",
      local: null,
      remote: "203.0.113.10",
      rx: 0,
      tx: 0,
      service: "stop",
    },
  ],
};

/** Example `event`. */
export const EXAMPLE_EVENT: DeviceEventMessage = {
  v: 1,
  seq: 1008,
  ts,
  kind: "sim_switched",
  level: "warning",
  message: "Modem 1-1 switched from SIM 1 to SIM 2: no data connection for 120 s",
  details: { modem: "1-1", from_sim: 1, to_sim: 2, reason: "no_data" },
};

/** Example `command` (server → device). */
export const EXAMPLE_COMMAND: CommandMessage = {
  v: 1,
  seq: 52,
  ts,
  id: "cmd8f3a2c",
  type: "shell",
  args: { script: "uptime" },
  run_until: ts + 3_600_000,
};

/** Example `command` with a file: a backup uploaded with a signed URL. */
export const EXAMPLE_BACKUP_COMMAND: CommandMessage = {
  v: 1,
  seq: 53,
  ts,
  id: "cmd8f3a2d",
  type: "backup",
  args: {},
  file: {
    url: "https://console.example.com/api/transfer/5d0c6a2e-8f41-4b7e-9a13-2c6f0e8b7d94?device=0b7c3a52-6e1f-4d2a-8c9b-3f5e7a1d2c60&method=PUT&expires=1767226500000&sig=8e3f1c0e9ab24d7f6a5b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f",
    method: "PUT",
    expires_at: ts + 900_000,
    filename: "backup-RUT955-20260101.tar.gz",
  },
};

/** Example `command` with a file to download: a firmware update, with the size and SHA-256 to check. */
export const EXAMPLE_FIRMWARE_COMMAND: CommandMessage = {
  v: 1,
  seq: 54,
  ts,
  id: "cmd8f3a2e",
  type: "fw_update",
  args: {},
  file: {
    url: "https://console.example.com/api/transfer/a41f7d03-2b6e-4c58-b9d1-7e0c3f5a8b26?device=0b7c3a52-6e1f-4d2a-8c9b-3f5e7a1d2c60&method=GET&expires=1767226500000&sig=1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e",
    method: "GET",
    expires_at: ts + 900_000,
    filename: "RUT9_R_00.07.06.bin",
    size: 16_252_928,
    sha256: "3b7e1c2d4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c",
  },
};

/** Example `command/{id}/status`. */
export const EXAMPLE_COMMAND_STATUS: CommandStatusMessage = {
  v: 1,
  seq: 1009,
  ts: ts + 1_500,
  id: "cmd8f3a2c",
  state: "completed",
  code: 0,
  output: " 00:00:01 up 1 day,  0:00,  load average: 0.12, 0.10, 0.08",
};

/** Example notice (server → device): a collect type this server does not know. */
export const EXAMPLE_NOTICE: NoticeMessage = {
  v: 1,
  seq: ts,
  ts,
  reason: "unsupported_topic",
  topic: "cellfleet/v1/SIM000001/collect/wifi",
};

/** A `tunnel_open` (ADR 038): dial out, pin the host key, forward port 22 back (docs/device-protocol.md 4.7). */
export const EXAMPLE_TUNNEL_OPEN: TunnelOpenMessage = {
  v: 1,
  seq: 0,
  ts,
  type: "tunnel_open",
  session: "2f0c6a52-4f8e-4b8a-9d43-5a3c1e7b9f10",
  kind: "terminal",
  host: "console.example.com",
  port: 2222,
  user: "2f0c6a52-4f8e-4b8a-9d43-5a3c1e7b9f10",
  password: "q9Xr2mLw8ZtB4vNc7HsK1pDf6GyJ3aQe",
  host_key: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFDj1+8sZIzl8PrYaokjd6e4bD/xX9HKKuKkZBRmnQoH",
  target_port: 22,
  public_key: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHb6d2yQm0bq1Yw8Q6b3xK2Vt7sL4nP9cR5eJ1uF0aGz",
  expires: ts + 30_000,
};

/** Example `collect/gps`. */
export const EXAMPLE_GPS: GpsCollect = {
  v: 1,
  seq: 1008,
  ts,
  lat: 55.7558,
  lng: 37.6173,
  accuracy: 8,
  fix_time: ts - 2000,
};
