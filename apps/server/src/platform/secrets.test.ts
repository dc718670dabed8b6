import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../test/test-db";
import { createPlatformSecrets, loadPlatformSecrets, SealedValueError } from "./secrets";

let testDb: TestDatabase;
// In a hook: the first file after a migration change builds the PGlite snapshot, which takes a while.
beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(async () => {
  await testDb.drop();
});

describe("platform secrets", () => {
  it("makes the master secret once, so every node of a database derives the same keys", async () => {
    const { db } = testDb.database;
    const [a, b] = await Promise.all([loadPlatformSecrets(db), loadPlatformSecrets(db)]);
    expect(a.key("file-url").equals(b.key("file-url"))).toBe(true);
    expect(b.open("job-payload", a.seal("job-payload", "hello"))).toBe("hello");
    expect(await db.selectFrom("platform_secrets").selectAll().execute()).toHaveLength(1);
  });

  it("gives each purpose its own key", () => {
    const secrets = createPlatformSecrets(Buffer.alloc(32, 7));
    expect(secrets.key("file-url").equals(secrets.key("job-payload"))).toBe(false);
    expect(secrets.key("file-url")).toHaveLength(32);
  });

  it("seals so the text is unreadable and opens it again", () => {
    const secrets = createPlatformSecrets(Buffer.alloc(32, 1));
    const sealed = secrets.seal("job-payload", "Password-1 and ünïcode");
    expect(sealed).not.toContain("Password");
    expect(secrets.seal("job-payload", "x")).not.toBe(secrets.seal("job-payload", "x"));
    expect(secrets.open("job-payload", sealed)).toBe("Password-1 and ünïcode");
  });

  it("refuses an altered value, another purpose's value and another master's value", () => {
    const secrets = createPlatformSecrets(Buffer.alloc(32, 1));
    const sealed = secrets.seal("job-payload", "secret text");
    const last = sealed.at(-2) === "A" ? "B" : "A";
    const altered = `${sealed.slice(0, -2)}${last}${sealed.at(-1)}`;
    expect(() => secrets.open("job-payload", altered)).toThrow(SealedValueError);
    expect(() => secrets.open("file-url", sealed)).toThrow(SealedValueError);
    expect(() => createPlatformSecrets(Buffer.alloc(32, 2)).open("job-payload", sealed)).toThrow(
      SealedValueError,
    );
    expect(() => secrets.open("job-payload", "v1.AAAA")).toThrow(SealedValueError);
    expect(() => secrets.open("job-payload", "plain")).toThrow(SealedValueError);
  });
});
