// What changed on a modem between two reports, drawn as markers on the signal charts (issue 18).

/** The modem fields whose change is marked on the charts, most telling first. */
export const MODEM_CHANGE_FIELDS = ["sim", "iccid", "operator", "band", "mode"] as const;
/** One of {@link MODEM_CHANGE_FIELDS}. */
export type ModemChangeField = (typeof MODEM_CHANGE_FIELDS)[number];

/** What a change marker needs of a modem report. */
export interface ModemIdentity {
  id: string;
  sim: number;
  iccid: string | null;
  operator: string | null;
  band: string | null;
  mode: string;
}

/** The changed fields of one modem, each with its value before and after. */
export type ModemChangeSet = Partial<
  Record<ModemChangeField, { from: string | number; to: string | number }>
>;

/** One modem's changes between two reports. */
export interface ModemChange {
  modem: string;
  changes: ModemChangeSet;
}

/**
 * Changes of SIM slot, SIM card (ICCID), operator, band and network mode of each modem present in
 * both reports. A value that is missing on either side (no SIM, not registered) marks nothing: a
 * modem that loses and regains its network would otherwise mark every drop twice.
 */
export function modemChangesBetween(
  previous: readonly ModemIdentity[] | null,
  next: readonly ModemIdentity[],
): ModemChange[] {
  if (previous === null) return [];
  const before = new Map(previous.map((modem) => [modem.id, modem]));
  const out: ModemChange[] = [];
  for (const modem of next) {
    const earlier = before.get(modem.id);
    if (!earlier) continue;
    const changes: ModemChangeSet = {};
    for (const field of MODEM_CHANGE_FIELDS) {
      const from = earlier[field];
      const to = modem[field];
      if (from === null || to === null || from === to) continue;
      if (field === "mode" && (from === "unknown" || to === "unknown")) continue;
      changes[field] = { from, to };
    }
    if (Object.keys(changes).length > 0) out.push({ modem: modem.id, changes });
  }
  return out;
}

/** The field a marker is labelled by: the first changed one in {@link MODEM_CHANGE_FIELDS} order. */
export function mainChangeField(changes: ModemChangeSet): ModemChangeField | null {
  return MODEM_CHANGE_FIELDS.find((field) => changes[field] !== undefined) ?? null;
}
