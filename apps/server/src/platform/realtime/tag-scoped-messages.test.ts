import type { ServerSocketMessage } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import { type ScopeView, scopeDomainMessage } from "./tag-scoped-messages";

const north = { _id: "n1", ident: "N1", tags: ["north", "pumps"] };
const south = { _id: "s1", ident: "S1", tags: ["south"] };
/** A socket limited to north that shows nothing, whose routers are n1 and whose commands are c-n. */
const view: ScopeView = {
  isShowing: () => false,
  hasRouter: (id) => id === "n1",
  hasCommand: (id) => id === "c-n",
};

describe("scopeDomainMessage (ADR 041)", () => {
  it("passes every message whole to a socket without a scope", () => {
    const message: ServerSocketMessage = { type: "collects", content: [{ device_id: "s1" }] };
    expect(scopeDomainMessage(message, [], view)).toBe(message);
  });

  it("cuts device pushes to the routers within every list of the scope", () => {
    const message: ServerSocketMessage = { type: "devices", action: "update", content: [north, south] };
    expect(scopeDomainMessage(message, [["north"]], view)).toEqual({ ...message, content: [north] });
    expect(scopeDomainMessage(message, [["north"], ["south"]], view)).toEqual({ ...message, content: [] });
    expect(scopeDomainMessage(message, [["south", "north"]], view)).toBe(message);
  });

  it("turns a push of a shown router that left the scope into a reread", () => {
    const message: ServerSocketMessage = { type: "devices", action: "update", content: [south] };
    expect(scopeDomainMessage(message, [["north"]], { ...view, isShowing: (id) => id === "s1" })).toEqual({
      type: "reread",
    });
  });

  it("cuts collects, alerts and remote sessions to the socket's routers", () => {
    const collects: ServerSocketMessage = {
      type: "collects",
      content: [{ device_id: "s1" }, { device_id: "n1" }],
    };
    expect(scopeDomainMessage(collects, [["north"]], view)).toEqual({
      type: "collects",
      content: [{ device_id: "n1" }],
    });
    const alerts: ServerSocketMessage = {
      type: "alerts",
      content: [{ device: { _id: "s1" } }, { device: null }, { device: { _id: "n1" } }],
    };
    expect(scopeDomainMessage(alerts, [["north"]], view)).toEqual({
      type: "alerts",
      content: [{ device: { _id: "n1" } }],
    });
    const outside: ServerSocketMessage = { type: "alerts", content: [{ device: { _id: "s1" } }] };
    expect(scopeDomainMessage(outside, [["north"]], view)).toBeNull();
    // The sessions list replaces the page's: an empty one is news too.
    const peers: ServerSocketMessage = { type: "peers", content: [{ device_id: "s1" }] };
    expect(scopeDomainMessage(peers, [["north"]], view)).toEqual({ type: "peers", content: [] });
  });

  it("cuts commands, approvals and executions to those wholly the socket's", () => {
    const commands: ServerSocketMessage = {
      type: "commands",
      content: {
        commands: [{ _id: "c-s" }, { _id: "c-n" }],
        executions: [{ device: { _id: "s1" } }, { device: { _id: "n1" } }],
      },
    };
    expect(scopeDomainMessage(commands, [["north"]], view)).toEqual({
      type: "commands",
      content: { commands: [{ _id: "c-n" }], executions: [{ device: { _id: "n1" } }] },
    });
    const approval: ServerSocketMessage = { type: "approval", content: [{ _id: "c-s" }] };
    expect(scopeDomainMessage(approval, [["north"]], view)).toBeNull();
  });

  it("sends a tag-limited socket the in-app notifications about its routers or none, and what names no router as is", () => {
    const news: ServerSocketMessage = {
      type: "notifications",
      content: [
        { title: "north", device_ids: ["n1"] },
        { title: "both", device_ids: ["n1", "s1"] },
        { title: "south", device_ids: ["s1"] },
        { title: "a licence", device_ids: null },
      ],
    };
    expect(scopeDomainMessage(news, [["north"]], view)).toEqual({
      type: "notifications",
      content: [
        { title: "north", device_ids: ["n1"] },
        { title: "a licence", device_ids: null },
      ],
    });
    const south: ServerSocketMessage = {
      type: "notifications",
      content: [{ title: "s", device_ids: ["s1"] }],
    };
    expect(scopeDomainMessage(south, [["north"]], view)).toBeNull();
    const read: ServerSocketMessage = { type: "events", action: "read", content: ["1"] };
    expect(scopeDomainMessage(read, [["north"]], view)).toBe(read);
  });
});
