import { firmwareVersionFromFilename } from "@cellfleet/contract";
import type { Kysely } from "kysely";
import type { DB } from "../../platform/db/schema";
import type { SoftwareRuleRow } from "../../platform/db/schema-firmware";
import type { FirmwareUpdateItem, FirmwareUpdateSource } from "../notifications/engine/hooks";
import { firmwareRepo } from "./firmware.repo";

/** What each model should run: the newest ready rule naming it, and the version its file carries. */
export function targetVersions(
  rules: readonly SoftwareRuleRow[],
): Map<string, { ruleId: string; version: string }> {
  const targets = new Map<string, { ruleId: string; version: string }>();
  // `rules` come newest sync first, so the first rule to name a model wins.
  for (const rule of rules) {
    if (rule.status !== 2 || !rule.filename) continue;
    const version = firmwareVersionFromFilename(rule.filename);
    for (const model of rule.models)
      if (!targets.has(model)) targets.set(model, { ruleId: rule.id, version });
  }
  return targets;
}

/** The domain's routers whose model a ready rule names and that report another version than its file's. */
export async function findFirmwareUpdates(db: Kysely<DB>, domainId: string): Promise<FirmwareUpdateItem[]> {
  const repo = firmwareRepo(db);
  const targets = targetVersions(await repo.listReadyRules());
  const devices = await repo.findDevicesOfModels(domainId, [...targets.keys()]);
  const updates: FirmwareUpdateItem[] = [];
  for (const device of devices) {
    const target = device.model === null ? undefined : targets.get(device.model);
    if (!target || device.firmware === target.version) continue;
    updates.push({ deviceId: device.id, ident: device.ident, tags: device.tags, version: target.version });
  }
  return updates;
}

/** The source the notifications' 'firmware update available' timer reads (its hook). */
export const firmwareUpdateSource: FirmwareUpdateSource = { findUpdates: findFirmwareUpdates };
