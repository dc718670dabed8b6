import { describe, expect, it } from "vitest";
import { domainTopic } from "../../platform/bus/bus";
import { createInProcessBus } from "../../platform/bus/in-process-bus";
import { listCountCache } from "./list-count-cache";
import { ListPageCache } from "./list-page-cache";

const TTL = 60;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A read answering 1, 2, 3… and counting its calls. */
function counter() {
  let calls = 0;
  return {
    read: async () => ++calls,
    get calls() {
      return calls;
    },
  };
}

describe("ListPageCache", () => {
  it("shares one read between concurrent and later callers, then reads behind the page once its time is up", async () => {
    const bus = createInProcessBus();
    const cache = new ListPageCache(TTL);
    const page = counter();
    const [a, b] = await Promise.all([
      cache.get(bus, "d1", "k", 0, page.read),
      cache.get(bus, "d1", "k", 0, page.read),
    ]);
    expect([a, b, await cache.get(bus, "d1", "k", 0, page.read)]).toEqual([1, 1, 1]);
    expect(await cache.get(bus, "d1", "other", 0, page.read)).toBe(2);
    await sleep(TTL + 5);
    // Past its time the page kept is answered while one read runs behind it.
    expect(
      await Promise.all([cache.get(bus, "d1", "k", 0, page.read), cache.get(bus, "d1", "k", 0, page.read)]),
    ).toEqual([1, 1]);
    expect(page.calls).toBe(3);
    expect(await cache.get(bus, "d1", "k", 0, page.read)).toBe(3);
    // Unread for twice its time, a page is read again and waited for.
    await sleep(2 * TTL + 5);
    expect(await cache.get(bus, "d1", "k", 0, page.read)).toBe(4);
    await bus.close();
  });

  it("answers the page kept at the clock's next window while reading it behind, and waits when the clock jumps", async () => {
    const bus = createInProcessBus();
    const cache = new ListPageCache(10_000);
    const given: Array<number | undefined> = [];
    let calls = 0;
    const read = async (kept?: number) => {
      given.push(kept);
      return ++calls;
    };
    expect(await cache.get(bus, "d8", "k", 7, read)).toBe(1);
    expect(await cache.get(bus, "d8", "k", 8, read)).toBe(1);
    expect(await cache.get(bus, "d8", "k", 8, read)).toBe(2);
    // The read behind a page is given that page.
    expect(given).toEqual([undefined, 1]);
    // Two windows on (or back), the page kept is not answered.
    expect(await cache.get(bus, "d8", "k", 10, read)).toBe(3);
    expect(await cache.get(bus, "d8", "k", 9, read)).toBe(4);
    // A change of the domain is waited for, at any window.
    await bus.publish(domainTopic("d8"), { type: "devices", action: "update", content: [] });
    expect(await cache.get(bus, "d8", "k", 10, read)).toBe(5);
    await bus.close();
  });

  it("keeps answering the page kept when the read behind it fails, and tries again", async () => {
    const bus = createInProcessBus();
    const cache = new ListPageCache(10_000);
    expect(await cache.get(bus, "d9", "k", 0, async () => "first")).toBe("first");
    const failing = cache.get(bus, "d9", "k", 1, async () => Promise.reject(new Error("boom")));
    expect(await failing).toBe("first");
    await sleep(1);
    expect(await cache.get(bus, "d9", "k", 1, async () => "second")).toBe("first");
    expect(await cache.get(bus, "d9", "k", 1, async () => "third")).toBe("second");
    await bus.close();
  });

  it("reads again after any message on the domain's topic, from whichever node, and not another domain's", async () => {
    const bus = createInProcessBus();
    const cache = new ListPageCache(10_000);
    const page = counter();
    expect(await cache.get(bus, "d2", "k", 0, page.read)).toBe(1);
    await bus.publish(domainTopic("other"), { type: "devices", action: "update", content: [] });
    expect(await cache.get(bus, "d2", "k", 0, page.read)).toBe(1);
    await bus.publish(domainTopic("d2"), { type: "events", action: "read", content: [] });
    expect(await cache.get(bus, "d2", "k", 0, page.read)).toBe(2);
    await bus.close();
  });

  it("never keeps a page read while a change's message arrived under the state after it", async () => {
    const bus = createInProcessBus();
    const cache = new ListPageCache(10_000);
    let release: (value: string) => void = () => {};
    const slow = cache.get(bus, "d3", "k", 0, () => new Promise<string>((resolve) => (release = resolve)));
    await bus.publish(domainTopic("d3"), { type: "devices", action: "update", content: [] });
    release("before the change");
    expect(await slow).toBe("before the change");
    expect(await cache.get(bus, "d3", "k", 0, async () => "after")).toBe("after");
    await bus.close();
  });

  it("reads again after a write through this node (the count cache's generation)", async () => {
    const bus = createInProcessBus();
    const cache = new ListPageCache(10_000);
    const page = counter();
    expect(await cache.get(bus, "d4", "k", 0, page.read)).toBe(1);
    listCountCache.invalidate("d4");
    expect(await cache.get(bus, "d4", "k", 0, page.read)).toBe(2);
    await bus.close();
  });

  it("never serves a failed read, and keeps nothing when its time is 0", async () => {
    const bus = createInProcessBus();
    const cache = new ListPageCache(10_000);
    await expect(cache.get(bus, "d5", "k", 0, async () => Promise.reject(new Error("boom")))).rejects.toThrow(
      "boom",
    );
    expect(await cache.get(bus, "d5", "k", 0, async () => "read")).toBe("read");
    const off = new ListPageCache(0);
    const page = counter();
    await off.get(bus, "d5", "k", 0, page.read);
    expect(await off.get(bus, "d5", "k", 0, page.read)).toBe(2);
    await bus.close();
  });

  it("lets go of a domain's topic once no page of it was read for a while", async () => {
    const bus = createInProcessBus();
    const subscribed = new Set<string>();
    const counting = {
      ...bus,
      subscribe(topic: string, handler: (message: unknown) => void) {
        subscribed.add(topic);
        const unsubscribe = bus.subscribe(topic, handler);
        return () => {
          subscribed.delete(topic);
          unsubscribe();
        };
      },
    };
    const cache = new ListPageCache(5, 1000, 20);
    await cache.get(counting, "d6", "k", 0, async () => 1);
    expect([...subscribed]).toEqual([domainTopic("d6")]);
    await sleep(30);
    // The next read (another domain's) sweeps: d6 was idle longer than 20 ms.
    await cache.get(counting, "d7", "k", 0, async () => 1);
    expect([...subscribed]).toEqual([domainTopic("d7")]);
    await bus.close();
  });
});
