import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/test-db";
import { postgresConnection } from "./database";

describe("postgresConnection", () => {
  it("turns JIT off, plans every call for its values and keeps the URL as it is", () => {
    const url = "postgres://cf:p%40ss@db.example:5433/fleet?sslmode=require";
    expect(postgresConnection(url)).toEqual({
      connectionString: url,
      options: "-c jit=off -c plan_cache_mode=force_custom_plan",
    });
  });

  it("keeps the URL's own options, with JIT off after them", () => {
    const { connectionString, options } = postgresConnection(
      "postgres://cf@db.example/fleet?options=-c%20search_path%3Dcf&sslmode=disable",
    );
    expect(options).toBe("-c search_path=cf -c jit=off -c plan_cache_mode=force_custom_plan");
    expect(new URL(connectionString).searchParams.get("options")).toBeNull();
    expect(new URL(connectionString).searchParams.get("sslmode")).toBe("disable");
  });
});

describe.runIf(process.env.DATABASE_URL)("the PostgreSQL pool", () => {
  it("runs its statements without JIT", async () => {
    const { database, drop } = await createTestDatabase();
    try {
      const { rows } = await sql<{ jit: string }>`show jit`.execute(database.db);
      expect(rows[0]?.jit).toBe("off");
    } finally {
      await drop();
    }
  });

  it("prepares a statement its connection runs again", async () => {
    const { database, drop } = await createTestDatabase();
    try {
      const names = await database.db.connection().execute(async (db) => {
        for (let i = 0; i < 2; i++) await sql`select ${i}::int as n`.execute(db);
        const { rows } = await sql<{
          statement: string;
        }>`select statement from pg_prepared_statements`.execute(db);
        return rows.map((row) => row.statement);
      });
      expect(names).toContain("select $1::int as n");
    } finally {
      await drop();
    }
  });
});
