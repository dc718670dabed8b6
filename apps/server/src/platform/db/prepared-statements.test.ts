import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/test-db";
import { postgresConnection } from "./database";
import { prepareStatements, statementName } from "./prepared-statements";

describe.runIf(process.env.DATABASE_URL)("prepared statements on a PostgreSQL connection", () => {
  let test: TestDatabase;
  let client: pg.Client;

  const preparedNames = async (): Promise<string[]> => {
    const { rows } = await client.query<{ name: string }>("select name from pg_prepared_statements");
    return rows.map((row) => row.name).sort();
  };

  beforeAll(async () => {
    test = await createTestDatabase();
    // A connection of its own, set up as the pool sets up each of its connections.
    const url = new URL(process.env.DATABASE_URL as string);
    const { rows } = await sql<{ db: string }>`select current_database() as db`.execute(test.database.db);
    url.pathname = `/${rows[0]?.db}`;
    client = new pg.Client(postgresConnection(url.toString()));
    await client.connect();
    prepareStatements(client as unknown as pg.PoolClient, 2);
  });

  afterAll(async () => {
    await client?.end();
    await test?.drop();
  });

  it("prepares a statement on its second use and answers the same either way", async () => {
    const text = "select $1::int + 1 as n";
    const first = await client.query(text, [1]);
    expect(await preparedNames()).toEqual([]);
    const second = await client.query(text, [41]);
    const third = await client.query(text, [9]);
    expect([first.rows, second.rows, third.rows]).toEqual([[{ n: 2 }], [{ n: 42 }], [{ n: 10 }]]);
    expect(await preparedNames()).toEqual([statementName(text)]);
  });

  it("plans each call for its own values", async () => {
    const { rows } = await client.query("show plan_cache_mode");
    expect(rows[0]?.plan_cache_mode).toBe("force_custom_plan");
  });

  it("leaves transaction control, settings and calls without values unprepared", async () => {
    for (let i = 0; i < 2; i++) {
      await client.query("begin");
      await client.query("set local statement_timeout = 5000");
      await client.query("select 7 as n");
      await client.query("commit");
    }
    expect(await preparedNames()).toEqual([statementName("select $1::int + 1 as n")]);
  });

  it("prepares no more than its limit and still runs the statements past it", async () => {
    const texts = ["select $1::int * 2 as n", "select $1::int * 3 as n"];
    for (const text of texts) {
      await client.query(text, [5]);
      await client.query(text, [5]);
    }
    const { rows } = await client.query(texts[1] as string, [7]);
    expect(rows).toEqual([{ n: 21 }]);
    expect(await preparedNames()).toEqual(
      [statementName("select $1::int + 1 as n"), statementName(texts[0] as string)].sort(),
    );
  });

  it("keeps working after a statement fails, in and after an aborted transaction", async () => {
    const text = "select 1 / $1::int as n";
    await client.query(text, [1]);
    await client.query("begin");
    await expect(client.query(text, [0])).rejects.toThrow(/division by zero/);
    await expect(client.query("select $1::int + 1 as n", [1])).rejects.toThrow(/aborted/);
    await client.query("rollback");
    expect((await client.query("select $1::int + 1 as n", [2])).rows).toEqual([{ n: 3 }]);
  });
});
