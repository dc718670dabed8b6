import type { ParsedReport } from "./ingest.plan";
import type { SeqNumbering } from "./ingest.repo";

/** What a batch renumbered: its reports with stored seqs, and the devices whose epoch moved on. */
export interface Renumbered {
  reports: ParsedReport[];
  /** The new numbering of each device that started an epoch in the batch. */
  restarted: SeqNumbering[];
}

/**
 * The devices of the batch that send an epoch they never used (neither their current nor their
 * previous one). Their stored last_seq may lag: it is written only when the device row visibly
 * changes, so the caller raises it to the highest seq stored before renumbering.
 */
export function devicesStartingEpoch(
  reports: readonly ParsedReport[],
  devices: readonly SeqNumbering[],
): SeqNumbering[] {
  const byIdent = new Map(devices.map((device) => [device.ident, device]));
  const starting = new Map<string, SeqNumbering>();
  for (const report of reports) {
    const device = byIdent.get(report.ident);
    const epoch = report.message.epoch;
    if (!device || epoch === undefined) continue;
    if (epoch !== device.seq_epoch && epoch !== device.seq_prev_epoch) starting.set(device.id, device);
  }
  return [...starting.values()];
}

/**
 * Turns the seq a router sent into the seq the server stores (docs/device-protocol.md 5.1). A report
 * without `epoch`, or of the device's current epoch, gets the current offset; one of the previous
 * epoch (a late repeat) gets that epoch's offset; any other epoch starts a new numbering right after
 * the highest seq stored or seen so far, so a reset router's reports replace what is shown again and
 * its events never collide with the old ones. Reports are taken in arrival order, as the device sent
 * them. Pure: the caller holds the devices' row locks and writes `restarted` back.
 */
export function renumberReports(
  reports: readonly ParsedReport[],
  devices: readonly SeqNumbering[],
): Renumbered {
  const state = new Map(devices.map((device) => [device.ident, { ...device, changed: false }]));
  const out: ParsedReport[] = [];
  for (const report of reports) {
    const device = state.get(report.ident);
    const epoch = report.message.epoch;
    if (!device) {
      out.push(report);
      continue;
    }
    let offset = device.seq_offset;
    if (epoch !== undefined && epoch !== device.seq_epoch) {
      if (epoch === device.seq_prev_epoch) offset = device.seq_prev_offset;
      else {
        device.seq_prev_epoch = device.seq_epoch;
        device.seq_prev_offset = device.seq_offset;
        device.seq_epoch = epoch;
        device.seq_offset = device.last_seq + 1;
        device.changed = true;
        offset = device.seq_offset;
      }
    }
    const seq = report.message.seq + offset;
    device.last_seq = Math.max(device.last_seq, seq);
    out.push(offset === 0 ? report : ({ ...report, message: { ...report.message, seq } } as ParsedReport));
  }
  const restarted = [...state.values()]
    .filter((device) => device.changed)
    .map(({ changed: _changed, ...device }) => device);
  return { reports: out, restarted };
}
