import type { LicenseError, LicensePayload } from "@cellfleet/contract";
import type { ColumnType, Generated, Selectable } from "kysely";

type Timestamp = ColumnType<Date, Date, Date>;

/** Licences root added (0024_licences); the installation's, so no domain owns them. */
export interface LicensesTable {
  id: string;
  /** 64 hexadecimal characters, lower case. */
  key: string;
  /** The last verified licence the vendor signed for this installation (jsonb). */
  document: ColumnType<LicensePayload | null, string | null, string | null>;
  signature: string | null;
  last_error: LicenseError | null;
  refreshing: Generated<boolean>;
  check_time: Timestamp | null;
  update_time: Timestamp | null;
  /** When the vendor first answered 'active' for this installation. */
  activation_date: Timestamp | null;
  create_time: Timestamp;
}

export type LicenseRow = Selectable<LicensesTable>;
