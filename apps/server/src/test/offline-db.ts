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

/** What an offline query answers: no rows, unless a test gives an answer. */
export type OfflineAnswer = (query: CompiledQuery) => QueryResult<unknown>;

const NO_ROWS: OfflineAnswer = () => ({ rows: [] });

/** A driver that never connects: `onQuery` sees each query, and `answer` answers it. */
class RecordingDriver extends DummyDriver {
  constructor(
    private readonly onQuery: (query: CompiledQuery) => void,
    private readonly answer: OfflineAnswer,
  ) {
    super();
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const { onQuery, answer } = this;
    return {
      async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
        onQuery(query);
        return answer(query) as QueryResult<R>;
      },
      async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
        onQuery(query);
        yield answer(query) as QueryResult<R>;
      },
    };
  }
}

/**
 * A database handle that never connects: queries compile, transactions open and end, nothing is
 * sent, and every query answers no rows (or what `answer` says). `onQuery`, when given, sees each
 * query as it would be sent.
 */
export function createOfflineDb(
  onQuery: (query: CompiledQuery) => void = () => {},
  answer: OfflineAnswer = NO_ROWS,
): Kysely<DB> {
  return new Kysely<DB>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new RecordingDriver(onQuery, answer),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
}
