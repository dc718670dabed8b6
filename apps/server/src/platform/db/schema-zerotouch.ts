import type { AdoptionStatus, ZeroTouchRange } from "@cellfleet/contract";
import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date, Date>;
type Jsonb<T> = ColumnType<T, string, string>;

/** Zero-touch configurations (0025_zero_touch). */
export interface ZeroTouchConfigsTable {
  id: string;
  domain_id: string;
  name: string;
  active: boolean;
  /** Public, unique: named in the router's user name. */
  key_id: string;
  /** The 64-hex secret, sealed with the platform's zero-touch key. */
  secret_sealed: string;
  tags: Jsonb<string[]>;
  template_id: string | null;
  models: Jsonb<string[]>;
  serial_ranges: Jsonb<ZeroTouchRange[]>;
  imei_ranges: Jsonb<ZeroTouchRange[]>;
  joined: Generated<number>;
  author_id: string;
  author_name: string;
  create_time: Timestamp;
  update_time: Timestamp;
}

/** Routers in the adoption list (0025_zero_touch). */
export interface ZeroTouchAdoptionsTable {
  id: string;
  domain_id: string;
  config_id: string | null;
  ident: string;
  model: string;
  serial: string;
  imei: string;
  status: AdoptionStatus;
  address: string | null;
  attempts: Generated<number>;
  first_seen: Timestamp;
  last_seen: Timestamp;
  decided_by: string | null;
  decided_time: Timestamp | null;
  device_id: string | null;
}
