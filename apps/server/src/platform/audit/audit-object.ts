import type { AuditObject, AuditRoute } from "@cellfleet/contract";
import { hideSecretsInText } from "./sanitize";

/** What the audit writer knows of a call when it names the call's object. */
export interface AuditCall {
  params: unknown;
  body: unknown;
  /** What the handler answered (a create's new object); undefined for a refused call. */
  answer: unknown;
  /** What a service with its own transactions said it saved (an upload's file). */
  saved?: { id: string; name: string | null };
  actor: { id: string | null; username: string; domainId: string | null };
}

// Fields that name an object, in the order they are looked for.
const NAME_FIELDS = ["name", "username", "ident", "filename", "type", "title", "version", "tag", "email"];
// Objects whose id is their name (a SIM's ICCID, an event type, a tag).
const ID_IS_NAME = new Set(["sim", "eventType", "tag", "registration"]);

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function text(value: unknown): string | null {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  return trimmed ? hideSecretsInText(trimmed).slice(0, 200) : null;
}

function nameIn(value: unknown): string | null {
  const fields = record(value);
  for (const key of NAME_FIELDS) {
    const found = text(fields[key]);
    if (found) return found;
  }
  return null;
}

/** The answer's own object: itself, or its `item` (`{ item }` answers). */
function answerObject(answer: unknown): Record<string, unknown> {
  const fields = record(answer);
  return "_id" in fields || "id" in fields ? fields : record(fields.item);
}

/**
 * The object an audited call touched, as far as its path, body and answer show it: the id from the
 * place the route's AUDIT_ROUTES entry names, a name from the body or the answer, a count for a call
 * on several. The caller adds a name read from the database where none was shown.
 */
export function auditObjectOf(route: AuditRoute, call: AuditCall): AuditObject {
  const object: AuditObject = { type: route.object, id: null, name: null, count: null };
  const source = route.id;
  if (source === "self") {
    object.id = call.actor.id;
    object.name = call.actor.username;
  } else if (source === "domain") {
    object.id = call.actor.domainId;
  } else if (source === "answer") {
    if (call.saved) {
      object.id = call.saved.id;
      object.name = call.saved.name;
    }
    const answer = answerObject(call.answer);
    object.id ??= text(answer._id) ?? text(answer.id);
    object.name ??= nameIn(answer);
    const created = record(call.answer).created;
    if (object.id === null && typeof created === "number") object.count = created;
  } else {
    const [from, key = ""] = source.split(":") as ["param" | "body", string];
    const value = record(from === "param" ? call.params : call.body)[key];
    if (Array.isArray(value)) object.count = value.length;
    else object.id = text(value);
  }
  object.name ??= nameIn(call.body);
  if (object.name === null && object.id !== null && ID_IS_NAME.has(object.type)) object.name = object.id;
  return object;
}
