import type { ColumnType, Generated } from "kysely";

// The tables of events (spec section 3) and who read them, kept apart from schema.ts so that file
// stays readable; DB there lists them.

/** timestamptz: read as Date, written as Date. */
type Timestamp = ColumnType<Date, Date, Date>;
/** timestamptz with a database default. */
type TimestampDefault = ColumnType<Date, Date | undefined, Date>;

/** Events of devices and users (spec section 3). */
export interface EventsTable {
  id: ColumnType<string, never, never>;
  domain_id: string;
  device_id: string | null;
  kind: string;
  level: "info" | "warning" | "error" | "alert";
  message: Generated<string>;
  details: ColumnType<Record<string, unknown>, string | undefined, string>;
  is_read: Generated<boolean>;
  /** Raised while its kind was switched off in the domain's event types: new to nobody (0019). */
  is_quiet: Generated<boolean>;
  author_id: string | null;
  device_time: Timestamp | null;
  create_time: TimestampDefault;
  /** The device report's seq; events are idempotent by (device_id, seq). Null for server-raised events. */
  seq: ColumnType<string | null, string | number | null | undefined, string | number | null>;
}

/** An event one user read (0016): read state is per user. */
export interface EventReadsTable {
  user_id: string;
  event_id: string;
}

/** How many of a router's counted events a user has read (0029, ADR 025); no row: none. */
export interface DeviceEventReadsTable {
  user_id: string;
  device_id: string;
  read_count: number;
}

/** A domain's switch of one event kind (migration 0019); no row means active. */
export interface EventTypesTable {
  domain_id: string;
  kind: string;
  active: boolean;
  update_time: Generated<Date>;
}
