// The device list's where clause: one filter of the contract in SQL, the domain always included.

import type { TagScope } from "@cellfleet/contract";
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from "kysely";
import { likePattern } from "../../platform/db/like";
import { type DB, toJsonb } from "../../platform/db/schema";
import { tagScopeCondition } from "../../platform/db/tag-scope";
import type { ContactRange, CsqRange, DeviceFilter } from "./device-filter";
import { unreadJoined } from "./device-unread";

export type DevicesEb = ExpressionBuilder<DB, "devices">;

/**
 * Everything the search covers in one text, `|` between fields (a search cannot hold `|`, so no
 * match spans two fields). Identical to the trigram index expression of migration 0004_devices.
 */
const DEVICE_SEARCH_TEXT = sql`(devices.ident || '|' || devices.description || '|' || coalesce(devices.model, '') || '|' || coalesce(devices.serial, '') || '|' || devices.tags::text)`;

export function contactCondition(eb: DevicesEb, range: ContactRange): Expression<SqlBool> {
  if (range.kind === "never") return eb("devices.last_contact", "is", null);
  if (range.kind === "none") return sql<SqlBool>`false`;
  const parts: Expression<SqlBool>[] = [eb("devices.last_contact", "is not", null)];
  if (range.from) parts.push(eb("devices.last_contact", ">=", range.from));
  if (range.to) parts.push(eb("devices.last_contact", "<", range.to));
  const within = eb.and(parts);
  return range.orNever ? eb.or([eb("devices.last_contact", "is", null), within]) : within;
}

export function csqCondition(eb: DevicesEb, range: CsqRange): Expression<SqlBool> {
  if (range.kind === "unknown") {
    return eb.or([
      eb("devices.signal_csq", "is", null),
      eb("devices.signal_csq", "<", 0),
      eb("devices.signal_csq", ">", 31),
    ]);
  }
  return eb.between("devices.signal_csq", range.min, range.max);
}

/** `column in (values)`, where the value "" stands for "none reported" (null). */
function choiceCondition(
  eb: DevicesEb,
  column: "devices.model" | "devices.firmware" | "devices.network_mode",
  values: readonly string[],
): Expression<SqlBool> {
  const named = values.filter((value) => value !== "");
  const parts: Expression<SqlBool>[] = [];
  if (named.length > 0) parts.push(eb(column, "in", named));
  if (named.length < values.length) parts.push(eb(column, "is", null));
  return eb.or(parts);
}

/**
 * The where clause of a filter, domain and the viewer's tag scope (ADR 041) included, over
 * devicesWithViewerReads' rows. "With events" means events the viewer has not read (ADR 025); a
 * router with none counted at all is ruled out first, off the (domain, events_total) index.
 */
export function filterCondition(
  eb: DevicesEb,
  domainId: string,
  tagScope: TagScope,
  filter: DeviceFilter,
): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [eb("devices.domain_id", "=", domainId)];
  if (tagScope.length > 0) parts.push(tagScopeCondition("devices.tags", tagScope));
  if (filter.search) {
    const pattern = likePattern(filter.search);
    parts.push(sql<SqlBool>`${DEVICE_SEARCH_TEXT} ilike ${pattern}`);
  }
  // Containment uses the GIN index on tags.
  if (filter.tags) parts.push(sql<SqlBool>`devices.tags @> ${toJsonb(filter.tags)}::jsonb`);
  // The viewer's own count (ADR 025), over the rows devicesWithViewerReads joins.
  if (filter.events === "with")
    parts.push(eb("devices.events_total", ">", 0), sql<SqlBool>`${unreadJoined} > 0`);
  if (filter.events === "without") parts.push(sql<SqlBool>`${unreadJoined} <= 0`);
  if (filter.contact) parts.push(eb.or(filter.contact.map((range) => contactCondition(eb, range))));
  if (filter.model) parts.push(choiceCondition(eb, "devices.model", filter.model));
  if (filter.version) parts.push(choiceCondition(eb, "devices.firmware", filter.version));
  if (filter.network_mode) parts.push(choiceCondition(eb, "devices.network_mode", filter.network_mode));
  if (filter.csq) parts.push(eb.or(filter.csq.map((range) => csqCondition(eb, range))));
  if (filter.backups !== undefined) parts.push(eb("devices.has_backups", "=", filter.backups));
  if (filter.journals !== undefined) parts.push(eb("devices.has_journals", "=", filter.journals));
  if (filter.file_type) {
    // Served by the files' (device_id, file_type) index; files and devices share the domain.
    parts.push(sql<SqlBool>`exists (select 1 from files where files.device_id = devices.id
      and files.file_type in (${sql.join(filter.file_type)}))`);
  }
  return eb.and(parts);
}
