import { DEVICE_STATUSES, type DeviceStatus, SIGNAL_QUALITIES } from "@cellfleet/contract";
import { type Expression, sql } from "kysely";
import { type ContactRange, CSQ_RANGES } from "./device-filter";
import { contactCondition, type DevicesEb } from "./devices-list.where";

// The device line's fixed parts as SQL text, written once: only the status depends on the request
// (its contact ranges are parameters), and building the rest as query nodes on every call cost the
// server more than the rest of the list query did.

/** A column of `devices` as JSON text: strings escaped by to_json, null as `null`. */
const jsonText = (column: string) => `coalesce(to_json(devices.${column})::text, 'null')`;

/** Epoch milliseconds of a timestamp column (as Date#getTime() gives them) as JSON text, or `null`. */
const epochMsText = (column: string) =>
  `coalesce(floor(extract(epoch from devices.${column}) * 1000)::bigint::text, 'null')`;

/** The signal quality of devices.signal_csq by CSQ_RANGES (constants, so literal). */
const QUALITY_TEXT = `case ${SIGNAL_QUALITIES.flatMap((name) => {
  const range = CSQ_RANGES[name];
  return range.kind === "between"
    ? [`when devices.signal_csq between ${range.min} and ${range.max} then '${name}'`]
    : [];
}).join(" ")} else 'unknown' end`;

const LINE_HEAD = sql.raw(`'{"_id":' || ${jsonText("id")}
    || ',"ident":' || ${jsonText("ident")}
    || ',"description":' || ${jsonText("description")}
    || ',"tags":' || case when jsonb_typeof(devices.tags) = 'array' then devices.tags::text else '[]' end
    || ',"board":{"model":' || ${jsonText("model")}
    || '},"firmware":' || ${jsonText("firmware")}
    || ',"serial":' || ${jsonText("serial")}
    || ',"time":' || ${epochMsText("last_contact")}
    || ',"status":"' || `);

const LINE_EVENTS = sql.raw(` || '","events":'`);

/** The line after the events count: starts with its comma. */
const LINE_TAIL = sql.raw(`',"signal":{"csq":' || coalesce(devices.signal_csq::text, 'null')
    || ',"quality":"' || ${QUALITY_TEXT}
    || '"},"network_mode":' || ${jsonText("network_mode")}
    || ',"wan_up":' || coalesce(devices.wan_up::text, 'null')
    || ',"has_backups":' || devices.has_backups::text
    || ',"has_journals":' || devices.has_journals::text
    || ',"has_key":' || (coalesce(devices.aes_key, '') <> '')::text
    || ',"connected":' || coalesce(devices.connected::text, 'null')
    || ',"connection_time":' || ${epochMsText("connection_time")}
    || ',"create_time":' || ${epochMsText("create_time")}
    || ',"position":' || case when devices.latitude is null or devices.longitude is null then 'null'
      else '{"latitude":' || devices.latitude::text || ',"longitude":' || devices.longitude::text
        || ',"source":"' || coalesce(devices.position_source, 'admin') || '"}' end
    || ',"meta":' || coalesce(devices.meta, '{}'::jsonb)::text
    || '}'`);

/**
 * A device as one line of JSON, built by the database: the object toDeviceDto makes of the row
 * (devices.mapper.ts; a test holds the two equal), with the status judged by the same contact
 * ranges the status filter uses and the signal quality by the CSQ ranges. The list's page then
 * costs the server no row parsing and no serialising, only the bytes. The line is concatenated
 * text, values escaped by to_json: json_build_object looks up the type of each of its arguments on
 * every row and costs twice as much (6 against 3.7 µs a device).
 */
export function deviceJsonLine(
  eb: DevicesEb,
  contactRanges: Record<DeviceStatus, ContactRange>,
  /** The viewer's unread count of the row (ADR 025). */
  unread: Expression<number>,
) {
  return sql<string>`${deviceLineHead(eb, contactRanges)} || ${unread}::text || ${LINE_TAIL}`;
}

/**
 * The same line in two parts the same for every viewer, for a page shared between viewers (ADR
 * 046): the head ends with `"events":`, the tail starts after the count, and each viewer's answer
 * puts its own unread count between them.
 */
export function deviceJsonLineParts(eb: DevicesEb, contactRanges: Record<DeviceStatus, ContactRange>) {
  return { head: deviceLineHead(eb, contactRanges), tail: sql<string>`${LINE_TAIL}` };
}

function deviceLineHead(eb: DevicesEb, contactRanges: Record<DeviceStatus, ContactRange>) {
  const status = sql.join(
    DEVICE_STATUSES.map((name) => sql`when ${contactCondition(eb, contactRanges[name])} then ${name}`),
    sql` `,
  );
  return sql<string>`${LINE_HEAD}case ${status} else 'critical' end${LINE_EVENTS}`;
}
