import type { ColumnType, Insertable, Selectable } from "kysely";

type Timestamp = ColumnType<Date, Date, Date>;

/** bigint: node-postgres and PGlite read it as a string. */
type BigintColumn = ColumnType<string, number | string, number | string>;

/** jsonb list of model names. */
type ModelsColumn = ColumnType<string[], string, string>;

/** Software (firmware) rules (modules/firmware, 0022_software_rules): root's, no domain. */
export interface SoftwareRulesTable {
  id: string;
  name: string;
  url: string;
  models: ModelsColumn;
  status: number;
  error: string | null;
  fetch_generation: ColumnType<number, number | undefined, number>;
  sync_time: Timestamp | null;
  /** The storage key of the fetched file; null until one was fetched whole. */
  file_key: string | null;
  filename: string | null;
  size: BigintColumn | null;
  sha256: string | null;
  create_time: Timestamp;
  update_time: Timestamp;
}

export type SoftwareRuleRow = Selectable<SoftwareRulesTable>;
export type NewSoftwareRuleRow = Insertable<SoftwareRulesTable>;
