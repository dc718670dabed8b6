import type { ServerSocketMessage } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import { scopeDomainMessage } from "./tag-scoped-messages";

const north = { _id: "n1", ident: "N1", tags: ["north", "pumps"] };
const south = { _id: "s1", ident: "S1", tags: ["south"] };
const showingNothing = () => false;

describe("scopeDomainMessage (ADR 041)", () => {
  it("passes every message whole to a socket without a scope", () => {
    const message: ServerSocketMessage = { type: "collects", content: [{ device_id: "s1" }] };
    expect(scopeDomainMessage(message, [], showingNothing)).toBe(message);
  });

  it("cuts device pushes to the routers within every list of the scope", () => {
    const message: ServerSocketMessage = { type: "devices", action: "update", content: [north, south] };
    expect(scopeDomainMessage(message, [["north"]], showingNothing)).toEqual({
      ...message,
      content: [north],
    });
    expect(scopeDomainMessage(message, [["north"], ["south"]], showingNothing)).toEqual({
      ...message,
      content: [],
    });
    expect(scopeDomainMessage(message, [["south", "north"]], showingNothing)).toBe(message);
  });

  it("turns a push of a shown router that left the scope into a reread", () => {
    const message: ServerSocketMessage = { type: "devices", action: "update", content: [south] };
    expect(scopeDomainMessage(message, [["north"]], (id) => id === "s1")).toEqual({ type: "reread" });
  });

  it("sends a tag-limited socket none of the kinds that name routers without their tags", () => {
    for (const message of [
      { type: "collects", content: [{ device_id: "s1" }] },
      { type: "alerts", content: [{ device: "s1" }] },
      { type: "approval", content: [{}] },
      { type: "peers", content: [{}] },
      { type: "commands", content: { commands: [], executions: [] } },
    ] as ServerSocketMessage[]) {
      expect(scopeDomainMessage(message, [["north"]], showingNothing)).toBeNull();
    }
    const read: ServerSocketMessage = { type: "events", action: "read", content: ["1"] };
    expect(scopeDomainMessage(read, [["north"]], showingNothing)).toBe(read);
  });
});
