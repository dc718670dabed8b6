import type { Random } from "./random";

/** Radio measurements of one modem, as the simulator walks them. */
export interface Radio {
  /** Reference signal received power, dBm. */
  rsrp: number;
  /** Reference signal received quality, dB. */
  rsrq: number;
  /** Signal to interference plus noise ratio, dB. */
  sinr: number;
  /** Received signal strength indicator, dBm. */
  rssi: number;
  /** Where this site's signal settles: the walk is pulled back towards it. */
  home: { rsrp: number; rsrq: number; sinr: number };
}

/**
 * Bounds the walk keeps to: what a working LTE modem reports in the field, inside the wider ranges
 * the protocol accepts (RADIO_BOUNDS in the contract).
 */
export const SIGNAL_BOUNDS = {
  rsrp: { min: -125, max: -65 },
  rsrq: { min: -20, max: -3 },
  sinr: { min: -10, max: 30 },
  rssi: { min: -113, max: -51 },
  csq: { min: 0, max: 31 },
} as const;

/** Per-tick standard deviation of each walk and the share of the distance home pulled back each tick. */
const STEP = { rsrp: 1.5, rsrq: 0.6, sinr: 1.2, rssi: 1.0 } as const;
const PULL = 0.05;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
const round1 = (value: number) => Math.round(value * 10) / 10;

/** A new radio for a site whose quality is picked by `random`, from cell edge to excellent. */
export function createRadio(random: Random): Radio {
  const rsrp = random.int(-118, -72);
  // Quality and interference follow power loosely: a strong cell is usually a clean one.
  const rsrq = clamp(
    round1(-14 + (rsrp + 95) / 6 + random.float(-2, 2)),
    SIGNAL_BOUNDS.rsrq.min,
    SIGNAL_BOUNDS.rsrq.max,
  );
  const sinr = clamp(
    round1(10 + (rsrp + 95) / 2 + random.float(-4, 4)),
    SIGNAL_BOUNDS.sinr.min,
    SIGNAL_BOUNDS.sinr.max,
  );
  const rssi = clamp(rsrp + random.int(20, 28), SIGNAL_BOUNDS.rssi.min, SIGNAL_BOUNDS.rssi.max);
  return { rsrp, rsrq, sinr, rssi, home: { rsrp, rsrq, sinr } };
}

/**
 * One step of the random walk: each measurement moves by a gaussian step, is pulled a little towards
 * the site's home value and stays within {@link SIGNAL_BOUNDS}. RSSI follows RSRP (RSSI sums the
 * power of every resource block, so it sits some 20-30 dB above RSRP). Pure: returns a new radio.
 */
export function driftRadio(radio: Radio, random: Random): Radio {
  const walk = (value: number, home: number, step: number, bounds: { min: number; max: number }) =>
    clamp(round1(value + random.gaussian() * step + (home - value) * PULL), bounds.min, bounds.max);
  const rsrp = Math.round(walk(radio.rsrp, radio.home.rsrp, STEP.rsrp, SIGNAL_BOUNDS.rsrp));
  const rsrq = walk(radio.rsrq, radio.home.rsrq, STEP.rsrq, SIGNAL_BOUNDS.rsrq);
  const sinr = walk(radio.sinr, radio.home.sinr, STEP.sinr, SIGNAL_BOUNDS.sinr);
  const rssiHome = clamp(rsrp + 24, SIGNAL_BOUNDS.rssi.min, SIGNAL_BOUNDS.rssi.max);
  const rssi = Math.round(walk(radio.rssi, rssiHome, STEP.rssi, SIGNAL_BOUNDS.rssi) * 0.7 + rssiHome * 0.3);
  return {
    rsrp,
    rsrq,
    sinr,
    rssi: clamp(rssi, SIGNAL_BOUNDS.rssi.min, SIGNAL_BOUNDS.rssi.max),
    home: radio.home,
  };
}

/** CSQ from RSSI as AT+CSQ reports it: 0 is -113 dBm or less, 31 is -51 dBm or more, 2 dB a step. */
export function csqFromRssi(rssi: number): number {
  return clamp(Math.round((rssi + 113) / 2), SIGNAL_BOUNDS.csq.min, SIGNAL_BOUNDS.csq.max);
}

/** The signal level a router's UI shows, percent: -120 dBm RSRP or less is 0, -70 dBm or more is 100. */
export function signalPercent(rsrp: number): number {
  return clamp(Math.round((rsrp + 120) * 2), 0, 100);
}
