import type { NetworkMode } from "@cellfleet/contract";

/** A router model the simulator can play, with what a real unit of it reports. */
export interface RouterModel {
  vendor: string;
  model: string;
  /** Firmware versions seen in the field, as the router spells them. */
  firmwares: readonly string[];
  /** Cellular module and the 8-digit type allocation code its IMEIs start with. */
  module: { name: string; tac: string; mode: NetworkMode };
  /** Cellular modems (1 or 2) and SIM slots per modem. */
  modems: 1 | 2;
  simSlots: 1 | 2;
  /** Physical Ethernet ports and their top speed, Mbit/s. */
  ports: readonly string[];
  portSpeed: 100 | 1000;
  memoryTotal: number;
  hasTemperature: boolean;
  /** Digital inputs whose changes raise `gpio_value_change`. */
  gpioPins: readonly string[];
  serialDigits: number;
}

const MiB = 1024 * 1024;

/** Routers common in cellular fleets. */
export const ROUTER_MODELS: readonly RouterModel[] = [
  {
    vendor: "Teltonika",
    model: "RUT955",
    firmwares: ["RUT9_R_00.07.04.5", "RUT9_R_00.07.06.10", "RUT9_R_00.07.08.2"],
    module: { name: "Quectel EC25-E", tac: "86675804", mode: "LTE" },
    modems: 1,
    simSlots: 2,
    ports: ["WAN", "LAN1", "LAN2", "LAN3"],
    portSpeed: 100,
    memoryTotal: 128 * MiB,
    hasTemperature: true,
    gpioPins: ["din1", "din2", "iso_in"],
    serialDigits: 10,
  },
  {
    vendor: "Teltonika",
    model: "RUTX11",
    firmwares: ["RUTX_R_00.07.04.5", "RUTX_R_00.07.06.10", "RUTX_R_00.07.08.2"],
    module: { name: "Quectel EG06-E", tac: "86447304", mode: "LTE" },
    modems: 1,
    simSlots: 2,
    ports: ["WAN", "LAN1", "LAN2", "LAN3"],
    portSpeed: 1000,
    memoryTotal: 256 * MiB,
    hasTemperature: true,
    gpioPins: ["din1"],
    serialDigits: 10,
  },
  {
    vendor: "Teltonika",
    model: "RUT241",
    firmwares: ["RUT2M_R_00.07.05.4", "RUT2M_R_00.07.06.10", "RUT2M_R_00.07.08.2"],
    module: { name: "Quectel EC25-EC", tac: "86758903", mode: "LTE" },
    modems: 1,
    simSlots: 1,
    ports: ["WAN", "LAN"],
    portSpeed: 100,
    memoryTotal: 128 * MiB,
    hasTemperature: false,
    gpioPins: ["din1"],
    serialDigits: 10,
  },
  {
    vendor: "Teltonika",
    model: "RUTX50",
    firmwares: ["RUTX_R_00.07.06.10", "RUTX_R_00.07.08.2"],
    module: { name: "Quectel RG501Q-EU", tac: "86882104", mode: "5G" },
    modems: 1,
    simSlots: 2,
    ports: ["WAN", "LAN1", "LAN2", "LAN3", "LAN4"],
    portSpeed: 1000,
    memoryTotal: 256 * MiB,
    hasTemperature: true,
    gpioPins: [],
    serialDigits: 10,
  },
  {
    vendor: "MikroTik",
    model: "LtAP LTE6",
    firmwares: ["RouterOS 7.14.3", "RouterOS 7.15.3", "RouterOS 7.16.2"],
    module: { name: "MikroTik R11e-LTE6", tac: "86143505", mode: "LTE" },
    modems: 2,
    simSlots: 1,
    ports: ["ether1"],
    portSpeed: 1000,
    memoryTotal: 128 * MiB,
    hasTemperature: true,
    gpioPins: [],
    serialDigits: 12,
  },
  {
    vendor: "Robustel",
    model: "R1510",
    firmwares: ["RobustOS 5.2.0", "RobustOS 5.3.0"],
    module: { name: "Quectel EC25-E", tac: "86675804", mode: "LTE" },
    modems: 1,
    simSlots: 2,
    ports: ["WAN", "LAN1"],
    portSpeed: 100,
    memoryTotal: 256 * MiB,
    hasTemperature: true,
    gpioPins: ["di1"],
    serialDigits: 11,
  },
  {
    vendor: "Robustel",
    model: "R1520",
    firmwares: ["RobustOS 5.2.0", "RobustOS 5.3.0"],
    module: { name: "Quectel EG25-G", tac: "86828704", mode: "LTE" },
    modems: 2,
    simSlots: 1,
    ports: ["WAN", "LAN1", "LAN2", "LAN3", "LAN4"],
    portSpeed: 1000,
    memoryTotal: 512 * MiB,
    hasTemperature: true,
    gpioPins: ["di1", "di2"],
    serialDigits: 11,
  },
];

/** A mobile operator with the MCC/MNC its IMSIs start with and the ICCID issuer prefix of its SIMs. */
export interface Operator {
  name: string;
  mccMnc: string;
  iccidPrefix: string;
  /** Bands it runs LTE on. */
  bands: readonly string[];
}

/** Operators the simulated SIM cards belong to. */
export const OPERATORS: readonly Operator[] = [
  { name: "MTS", mccMnc: "25001", iccidPrefix: "8970101", bands: ["B3", "B7", "B20"] },
  { name: "MegaFon", mccMnc: "25002", iccidPrefix: "8970102", bands: ["B3", "B7", "B20", "B38"] },
  { name: "Beeline", mccMnc: "25099", iccidPrefix: "8970199", bands: ["B3", "B7", "B8"] },
  { name: "Tele2", mccMnc: "25020", iccidPrefix: "8970120", bands: ["B3", "B7", "B20", "B31"] },
];

/** Tunnels a simulated router may have configured. */
export const TUNNEL_TEMPLATES = [
  { name: "office", kind: "openvpn", remote: "vpn.example.com" },
  { name: "hq-wg", kind: "wireguard", remote: "203.0.113.20" },
  { name: "backup-ipsec", kind: "ipsec", remote: "198.51.100.7" },
  { name: "scada-gre", kind: "gre", remote: "192.0.2.44" },
] as const;

/** The Luhn check digit of a digit string (IMEIs and ICCIDs end with one). */
export function luhnCheckDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return String((10 - (sum % 10)) % 10);
}
