import {
  type CompiledQuery,
  type DatabaseConnection,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from "kysely";
import type { DB } from "../platform/db/schema";

/** A driver that never connects: every query answers no rows, and `onQuery` sees it first. */
class RecordingDriver extends DummyDriver {
  constructor(private readonly onQuery: (query: CompiledQuery) => void) {
    super();
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const onQuery = this.onQuery;
    return {
      async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
        onQuery(query);
        return { rows: [] };
      },
      async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
        onQuery(query);
        yield { rows: [] };
      },
    };
  }
}

/**
 * A database handle that never connects: queries compile, transactions open and end, nothing is
 * sent, and every query answers no rows. `onQuery`, when given, sees each query as it would be sent.
 */
export function createOfflineDb(onQuery: (query: CompiledQuery) => void = () => {}): Kysely<DB> {
  return new Kysely<DB>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new RecordingDriver(onQuery),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
}
