import type { FleetEvent } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import { eventsOfAlert, prependEvents } from "./events.queries";

const event = (id: string, time: number): FleetEvent => ({
  _id: id,
  level: "info",
  kind: "router_started",
  read: false,
  author_id: null,
  message: "m",
  device: { _id: "d", ident: "R1" },
  details: {},
  device_time: null,
  create_time: time,
});

describe("live events", () => {
  it("puts new events first, newest first, without repeating known ones", () => {
    const list = [event("b", 20), event("a", 10)];
    expect(prependEvents(list, [event("c", 30), event("b", 20), event("d", 40)]).map((e) => e._id)).toEqual([
      "d",
      "c",
      "b",
      "a",
    ]);
  });

  it("takes only well-formed events from an alerts message", () => {
    expect(
      eventsOfAlert({ type: "alerts", content: [event("x", 1), { junk: 1 }] }).map((e) => e._id),
    ).toEqual(["x"]);
    expect(eventsOfAlert({ type: "alerts" })).toEqual([]);
  });
});
