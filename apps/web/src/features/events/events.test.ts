import type { FleetEvent } from "@cellfleet/contract";
import type { QueryFunctionContext } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { getEvents } from "./events.api";
import { eventPushLog, eventsInfiniteQueryOptions, eventsOfAlert, prependEvents } from "./events.queries";

vi.mock("./events.api", () => ({ getEvents: vi.fn(), getDeviceEvents: vi.fn(), markEventsRead: vi.fn() }));

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

  it("keeps an event pushed while the list's first page was read, which the answer did not have", async () => {
    let answer: (events: FleetEvent[]) => void = () => {};
    vi.mocked(getEvents).mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    const queryFn = eventsInfiniteQueryOptions({}).queryFn as (
      context: Pick<QueryFunctionContext, "signal"> & { pageParam: number },
    ) => Promise<FleetEvent[]>;
    eventPushLog.record(event("before", 5));
    const read = queryFn({ pageParam: 0, signal: new AbortController().signal });
    // The server read the list; then a new event was pushed, before the answer came.
    eventPushLog.record(event("meanwhile", 30));
    answer([event("b", 20), event("a", 10)]);
    expect((await read).map((e) => e._id)).toEqual(["meanwhile", "b", "a"]);
    // A later page is as read.
    const next = queryFn({ pageParam: 2048, signal: new AbortController().signal });
    eventPushLog.record(event("later", 40));
    answer([event("old", 1)]);
    expect((await next).map((e) => e._id)).toEqual(["old"]);
  });
});
