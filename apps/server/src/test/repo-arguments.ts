import { DEVICE_STATUSES, type DeviceStatus } from "@cellfleet/contract";
import type { ContactRange } from "../modules/devices/device-filter";

/** The domain id every generated repo call passes: a predicate on domain_id is found by this value. */
export const DOMAIN_ID = "00000000-0000-4000-8000-00000000d0d0";
/** Any other id a generated repo call passes. */
export const OTHER_ID = "00000000-0000-4000-8000-000000000001";
/** The instant every generated repo call passes as a time. */
export const AT = new Date("2026-01-02T03:04:05.000Z");

/**
 * Arguments for the repo functions whose parameters repo-queries.ts cannot generate from their names,
 * each with the reason. Keep it short: a parameter whose name says what it holds needs no entry.
 */
export const REPO_ARGUMENTS: Record<string, { reason: string; args: () => unknown[] }> = {
  "commandsRepo.findTargetDevices": {
    reason: "`targets` holds two lists and a flag, read unconditionally",
    args: () => [DOMAIN_ID, { devices: [OTHER_ID], tags: ["value"], all: false }],
  },
  "devicesListRepo.findDeviceLinesByFilter": {
    reason: "`sort` names a column, and `contactRanges` holds a range for every status",
    args: () => [
      DOMAIN_ID,
      {},
      { field: "ident", order: "asc" },
      { limit: 10, offset: 0, total: null },
      Object.fromEntries(
        DEVICE_STATUSES.map((status): [DeviceStatus, ContactRange] => [
          status,
          { kind: "between", from: AT, to: null },
        ]),
      ),
    ],
  },
  "licencesRepo.saveDocument": {
    reason: "`document` holds the licence payload, whose status the update reads",
    args: () => [OTHER_ID, { payload: { status: "active" }, signature: "value" }, AT],
  },
  "emailCodesRepo.insertCodeAcrossDomains": {
    reason: "`code` holds the address, which the insert lower-cases",
    args: () => [
      { purpose: "value", email: "value", userId: OTHER_ID, codeHash: "value", expiresAt: AT, at: AT },
    ],
  },
  "statusSweepRepo.updateLastStatusesAcrossDomains": {
    reason: "its `changes` is a list (elsewhere `changes` is one row's changes)",
    args: () => [[{ id: OTHER_ID, status: "online" }]],
  },
};
