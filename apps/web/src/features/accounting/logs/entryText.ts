import { AUDIT_KINDS, type AuditObject, type WebAction } from "@cellfleet/contract";
import type { TFunction } from "i18next";

const KNOWN_KINDS = new Set(AUDIT_KINDS);

/** The object of an entry in words: its name in quotes, else its short id, else how many. */
export function objectText(t: TFunction, object: AuditObject | null): string {
  if (!object) return "";
  if (object.name) return t("accounting.logs.object.name", { name: object.name });
  if (object.id) return t("accounting.logs.object.id", { id: object.id.slice(0, 8) });
  if (object.count !== null) return t("accounting.logs.object.count", { count: object.count });
  return "";
}

/** What an entry did, in words ("Deleted script “Uptime”"); an entry of no known kind by its method and section. */
export function entryText(t: TFunction, entry: Pick<WebAction, "action" | "kind" | "object">): string {
  if (!entry.kind || !KNOWN_KINDS.has(entry.kind))
    return t("accounting.logs.unworded", { action: entry.action });
  return t(`accounting.logs.kinds.${entry.kind}`, { object: objectText(t, entry.object) })
    .replace(/\s+/g, " ")
    .trim();
}

/** A kind alone, for the filter chip: the deed without its object ("Deleted script"). */
export function kindText(t: TFunction, kindOrAction: string): string {
  if (!KNOWN_KINDS.has(kindOrAction)) return kindOrAction;
  return t(`accounting.logs.kinds.${kindOrAction}`, { object: "" })
    .replace(/\s+/g, " ")
    .replace(/[\s:]+$/, "")
    .trim();
}
