import { randomUUID } from "node:crypto";
import {
  isWithinTagScope,
  type SavedScript,
  type SavedScriptRow,
  type SaveScriptInput,
  type ScriptKind,
  systemVariablesSet,
  type TemplateValues,
  templateVariables,
} from "@cellfleet/contract";
import type { Kysely } from "kysely";
import { tagScopeOf } from "../../platform/auth/permissions";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { type DB, toJsonb } from "../../platform/db/schema";
import { isUniqueViolation } from "../../platform/db/unique-violation";
import { AppError } from "../../platform/errors";
import { devicesRepo } from "../devices/devices.repo";
import { type ScriptRow, type ScriptVersionRow, scriptsRepo } from "./scripts.repo";

/**
 * The session's domain. A superuser may open /script/{id} for software files (the table admits
 * role 1) but has no domain, so no saved scripts: not a permission refusal, an unsupported operation.
 */
function scriptsDomain(session: SessionContext): string {
  if (session.domainId === null)
    throw new AppError(
      "OPERATION_IS_NOT_SUPPORTED",
      "Saved scripts belong to a domain; superusers have none",
    );
  return session.domainId;
}

const EMPTY_VALUES: TemplateValues = { defaults: {}, tag_values: {}, device_values: {} };

function toDto(row: ScriptRow, versions: readonly ScriptVersionRow[]): SavedScript {
  const latest = versions.find((version) => version.version === row.version);
  const values = latest?.var_values ?? EMPTY_VALUES;
  const text = latest?.text ?? "";
  return {
    _id: row.id,
    kind: row.kind,
    name: row.name,
    description: row.description,
    version: row.version,
    text,
    defaults: values.defaults,
    tag_values: values.tag_values,
    device_values: values.device_values,
    variables: row.kind === "template" ? templateVariables(text) : [],
    create_time: row.create_time.getTime(),
    update_time: row.update_time.getTime(),
    versions: versions.map((version) => ({
      version: version.version,
      author: { _id: version.author_id, name: version.author_name },
      create_time: version.create_time.getTime(),
    })),
  };
}

/** POST /api/scripts/ and /api/templates/: the domain's saved scripts or templates by name. */
export async function listScripts(
  ctx: AppContext,
  session: SessionContext,
  kind: ScriptKind,
  search: string,
): Promise<{ items: SavedScriptRow[] }> {
  const rows = await scriptsRepo(ctx.db).list(scriptsDomain(session), kind, search);
  return {
    items: rows.map((row) => ({
      _id: row.id,
      kind: row.kind,
      name: row.name,
      description: row.description,
      version: row.version,
      update_time: row.update_time.getTime(),
    })),
  };
}

/** One saved script or template with its versions; another domain's is COMMAND_TEMPLATE_MISSING. */
export async function getScript(
  ctx: AppContext,
  session: SessionContext,
  kind: ScriptKind,
  id: string,
): Promise<SavedScript> {
  const repo = scriptsRepo(ctx.db);
  const row = await repo.find(scriptsDomain(session), kind, id);
  if (!row) throw new AppError("COMMAND_TEMPLATE_MISSING", `No such ${kind}`);
  const dto = toDto(row, await repo.versions(row.domain_id, row.id));
  // A template's values for routers outside the caller's tags are those routers' (ADR 041).
  const tagScope = tagScopeOf(session);
  const ids = Object.keys(dto.device_values);
  if (tagScope.length === 0 || ids.length === 0) return dto;
  const within = new Set(
    (await devicesRepo(ctx.db).findDevicesByIds(row.domain_id, ids))
      .filter((device) => isWithinTagScope(tagScope, device.tags))
      .map((device) => device.id),
  );
  return {
    ...dto,
    device_values: Object.fromEntries(
      Object.entries(dto.device_values).filter(([deviceId]) => within.has(deviceId)),
    ),
  };
}

/** Checks a template's values: no system variable, and router ids of the domain only. */
async function checkValues(
  db: Kysely<DB>,
  domainId: string,
  input: SaveScriptInput,
): Promise<TemplateValues> {
  const system = systemVariablesSet(input);
  if (system.length > 0)
    throw new AppError("INVALID_VALUE_TYPE", `System variables are the router's own: ${system.join(", ")}`);
  const ids = Object.keys(input.device_values);
  if (ids.length > 0) {
    const found = await devicesRepo(db).findDevicesByIds(domainId, ids);
    if (found.length !== ids.length) throw new AppError("DEVICE_NOT_FOUND");
  }
  return { defaults: input.defaults, tag_values: input.tag_values, device_values: input.device_values };
}

/** Writes one version (the script's row already says it is the latest). */
async function writeVersion(
  trx: Kysely<DB>,
  session: SessionContext,
  domainId: string,
  id: string,
  version: number,
  input: SaveScriptInput,
  values: TemplateValues,
  now: Date,
): Promise<void> {
  await scriptsRepo(trx).insertVersion(domainId, {
    script_id: id,
    version,
    text: input.text,
    var_values: toJsonb(values),
    author_id: session.user.id,
    author_name: session.user.full_name || session.user.username,
    create_time: now,
  });
}

/** POST /api/script/new and /api/template/new: version 1. */
export async function createScript(
  ctx: AppContext,
  session: SessionContext,
  kind: ScriptKind,
  input: SaveScriptInput,
): Promise<SavedScript> {
  const domainId = scriptsDomain(session);
  const values = kind === "template" ? await checkValues(ctx.db, domainId, input) : EMPTY_VALUES;
  const id = randomUUID();
  const now = ctx.now();
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await scriptsRepo(trx).insert(domainId, {
        id,
        kind,
        name: input.name,
        description: input.description,
        version: 1,
        deleted: false,
        create_time: now,
        update_time: now,
      });
      await writeVersion(trx, session, domainId, id, 1, input, values, now);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("INVALID_VALUE_TYPE", `A ${kind} with this name exists`);
    throw error;
  }
  return getScript(ctx, session, kind, id);
}

/** POST /api/script/{id}/save and /api/template/{id}/save: a new version; the older ones stay. */
export async function saveScript(
  ctx: AppContext,
  session: SessionContext,
  kind: ScriptKind,
  id: string,
  input: SaveScriptInput,
): Promise<SavedScript> {
  const domainId = scriptsDomain(session);
  const values = kind === "template" ? await checkValues(ctx.db, domainId, input) : EMPTY_VALUES;
  const now = ctx.now();
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const row = await scriptsRepo(trx).lock(domainId, kind, id);
      if (!row) throw new AppError("COMMAND_TEMPLATE_MISSING", `No such ${kind}`);
      const version = row.version + 1;
      await writeVersion(trx, session, domainId, id, version, input, values, now);
      await scriptsRepo(trx).update(domainId, id, {
        name: input.name,
        description: input.description,
        version,
        update_time: now,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("INVALID_VALUE_TYPE", `A ${kind} with this name exists`);
    throw error;
  }
  return getScript(ctx, session, kind, id);
}

/** DELETE /api/script/{id} and /api/template/{id}: gone from the lists; commands keep what they used. */
export async function deleteScript(
  ctx: AppContext,
  session: SessionContext,
  kind: ScriptKind,
  id: string,
): Promise<void> {
  const deleted = await scriptsRepo(ctx.db).markDeleted(scriptsDomain(session), kind, id);
  if (!deleted) throw new AppError("COMMAND_TEMPLATE_MISSING", `No such ${kind}`);
}

/** What a command uses: the script or template at its latest version. */
export interface UsedScript {
  id: string;
  kind: ScriptKind;
  name: string;
  version: number;
  text: string;
  values: TemplateValues;
}

/**
 * The version of a script or template a command names: the latest, or `version` when given (a retry
 * repeats the version its command used). A missing one is COMMAND_TEMPLATE_MISSING.
 */
export async function findUsedScript(
  db: Kysely<DB>,
  domainId: string,
  kind: ScriptKind,
  id: string,
  version?: number,
): Promise<UsedScript> {
  const repo = scriptsRepo(db);
  const row = await repo.find(domainId, kind, id);
  const used = row ? await repo.version(domainId, row.id, version ?? row.version) : undefined;
  if (!row || !used)
    throw new AppError("COMMAND_TEMPLATE_MISSING", `No such ${kind}${version ? ` version ${version}` : ""}`);
  return {
    id: row.id,
    kind,
    name: row.name,
    version: used.version,
    text: used.text,
    values: used.var_values,
  };
}
