import { describe, expect, it } from "vitest";
import { runInUnitOfWork } from "../../platform/db/unit-of-work";
import { createOfflineDb } from "../../test/offline-db";
import { ListCountCache } from "./list-count-cache";

const TTL = 40;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A compute function answering 1, 2, 3… and counting its calls. */
function counter() {
  let calls = 0;
  return {
    compute: async () => ++calls,
    get calls() {
      return calls;
    },
  };
}

describe("ListCountCache", () => {
  it("shares one count between concurrent and later callers within its time", async () => {
    const cache = new ListCountCache(TTL);
    const count = counter();
    const [a, b] = await Promise.all([
      cache.get("d", "k", count.compute),
      cache.get("d", "k", count.compute),
    ]);
    expect([a, b, await cache.get("d", "k", count.compute)]).toEqual([1, 1, 1]);
    expect(count.calls).toBe(1);
  });

  it("answers the previous count at once after its time, while one recount runs", async () => {
    const cache = new ListCountCache(TTL);
    const count = counter();
    await cache.get("d", "k", count.compute);
    await sleep(TTL + 5);
    let release: () => void = () => {};
    const slow = async () => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return count.compute();
    };
    expect(await cache.get("d", "k", slow)).toBe(1);
    expect(await cache.get("d", "k", slow)).toBe(1);
    release();
    await sleep(1);
    expect(await cache.get("d", "k", count.compute)).toBe(2);
    expect(count.calls).toBe(2);
  });

  it("waits for a fresh count once the old one is more than twice its time old", async () => {
    const cache = new ListCountCache(TTL);
    const count = counter();
    await cache.get("d", "k", count.compute);
    await sleep(2 * TTL + 5);
    expect(await cache.get("d", "k", count.compute)).toBe(2);
  });

  it("never serves a failed count, and forgets a domain on invalidate", async () => {
    const cache = new ListCountCache(TTL);
    await expect(cache.get("d", "k", async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await sleep(1);
    const count = counter();
    expect(await cache.get("d", "k", count.compute)).toBe(1);
    cache.invalidate("d");
    expect(await cache.get("d", "k", count.compute)).toBe(2);
    expect(await cache.get("other", "k", count.compute)).toBe(3);
  });

  it("forgets a domain only once the unit of work that wrote commits, and not on a rollback", async () => {
    // Transactions without a database: the cache only needs the unit's commit and rollback.
    const root = createOfflineDb();
    const cache = new ListCountCache(TTL);
    const count = counter();
    expect(await cache.get("d", "k", count.compute)).toBe(1);
    const fail = new Error("rolled back");
    const rolledBack = runInUnitOfWork(
      root,
      async () => {
        cache.invalidate("d");
        throw fail;
      },
      async () => {},
    );
    await expect(rolledBack).rejects.toBe(fail);
    expect(await cache.get("d", "k", count.compute)).toBe(1);
    await runInUnitOfWork(
      root,
      async () => {
        cache.invalidate("d");
        // A list read before the commit still sees the old rows; its count must not outlive it.
        expect(await cache.get("d", "k", count.compute)).toBe(1);
      },
      async () => {},
    );
    expect(await cache.get("d", "k", count.compute)).toBe(2);
  });
});
