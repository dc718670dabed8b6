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
  it("shares one read between concurrent and later callers until its time is up", async () => {
    const bus = createInProcessBus();
    const cache = new ListPageCache(TTL);
    const page = counter();
    const [a, b] = await Promise.all([
      cache.get(bus, "d1", "k", page.read),
      cache.get(bus, "d1", "k", page.read),
    ]);
    expect([a, b, await cache.get(bus, "d1", "k", page.read)]).toEqual([1, 1, 1]);
    expect(await cache.get(bus, "d1", "other", page.read)).toBe(2);
    await sleep(TTL + 5);
    expect(await cache.get(bus, "d1", "k", page.read)).toBe(3);
    await bus.close();
  });

  it("reads again after any message on the domain's topic, from whichever node, and not another domain's", async () => {
    const bus = createInProcessBus();
    const cache = new ListPageCache(10_000);
    const page = counter();
    expect(await cache.get(bus, "d2", "k", page.read)).toBe(1);
    await bus.publish(domainTopic("other"), { type: "devices", action: "update", content: [] });
    expect(await cache.get(bus, "d2", "k", page.read)).toBe(1);
    await bus.publish(domainTopic("d2"), { type: "events", action: "read", content: [] });
    expect(await cache.get(bus, "d2", "k", page.read)).toBe(2);
    await bus.close();
  });

  it("never keeps a page read while a change's message arrived under the state after it", async () => {
    const bus = createInProcessBus();
    const cache = new ListPageCache(10_000);
    let release: (value: string) => void = () => {};
    const slow = cache.get(bus, "d3", "k", () => new Promise<string>((resolve) => (release = resolve)));
    await bus.publish(domainTopic("d3"), { type: "devices", action: "update", content: [] });
    release("before the change");
    expect(await slow).toBe("before the change");
    expect(await cache.get(bus, "d3", "k", async () => "after")).toBe("after");
    await bus.close();
  });

  it("reads again after a write through this node (the count cache's generation)", async () => {
    const bus = createInProcessBus();
    const cache = new ListPageCache(10_000);
    const page = counter();
    expect(await cache.get(bus, "d4", "k", page.read)).toBe(1);
    listCountCache.invalidate("d4");
    expect(await cache.get(bus, "d4", "k", page.read)).toBe(2);
    await bus.close();
  });

  it("never serves a failed read, and keeps nothing when its time is 0", async () => {
    const bus = createInProcessBus();
    const cache = new ListPageCache(10_000);
    await expect(cache.get(bus, "d5", "k", async () => Promise.reject(new Error("boom")))).rejects.toThrow(
      "boom",
    );
    expect(await cache.get(bus, "d5", "k", async () => "read")).toBe("read");
    const off = new ListPageCache(0);
    const page = counter();
    await off.get(bus, "d5", "k", page.read);
    expect(await off.get(bus, "d5", "k", page.read)).toBe(2);
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
    await cache.get(counting, "d6", "k", async () => 1);
    expect([...subscribed]).toEqual([domainTopic("d6")]);
    await sleep(30);
    // The next read (another domain's) sweeps: d6 was idle longer than 20 ms.
    await cache.get(counting, "d7", "k", async () => 1);
    expect([...subscribed]).toEqual([domainTopic("d7")]);
    await bus.close();
  });
});
