import type { Device } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import { initialListState } from "../../components/list-card";
import { toDeviceListRequest } from "./deviceListRequest";
import { patchDevicePage } from "./devicePushes";
import { addDeviceEvents, unreadEventsByDevice } from "./useDeviceLiveUpdates";

const device = (id: string, status: Device["status"]): Device => ({
  _id: id,
  ident: `R${id}`,
  description: "",
  tags: [],
  board: { model: null },
  firmware: null,
  serial: null,
  time: null,
  connected: null,
  connection_time: null,
  status,
  events: 0,
  signal: { csq: null, quality: "unknown" },
  network_mode: null,
  wan_up: null,
  has_backups: false,
  has_journals: false,
  has_key: false,
  create_time: 0,
  position: null,
  meta: {},
});

describe("toDeviceListRequest", () => {
  it("asks only for what is chosen, with facets", () => {
    expect(toDeviceListRequest(initialListState())).toEqual({ page: 0, size: 10, facets: true });
  });

  it("maps search, tags, events, facets, sort and paging", () => {
    const state = {
      ...initialListState({ field: "time", direction: "desc" as const }),
      search: " r1 ",
      tags: ["north"],
      events: "with" as const,
      facets: {
        status: ["online", "bogus"],
        tags: ["north", "south"],
        backups: ["with"],
        journals: ["with", "without"],
        model: [""],
      },
      page: 2,
      pageSize: 50,
    };
    expect(toDeviceListRequest(state)).toEqual({
      search: "r1",
      tags: ["north", "south"],
      events: "with",
      status: ["online"],
      model: [""],
      backups: true,
      sort: { field: "time", order: "desc" },
      page: 2,
      size: 50,
      facets: true,
    });
  });
});

describe("patchDevicePage", () => {
  const page = {
    header: { total: 3, page: 0, size: 10 },
    rows: [device("1", "pending"), device("2", "online")],
    facets: null,
    isComplete: true,
  };

  it("replaces updated rows in place and leaves others", () => {
    const next = patchDevicePage(page, "update", [device("1", "online"), device("9", "online")]);
    expect(next.rows.map((row) => row.status)).toEqual(["online", "online"]);
    expect(next.rows[1]).toBe(page.rows[1]);
  });

  it("drops deleted rows and lowers the total", () => {
    const next = patchDevicePage(page, "delete", [device("2", "online")]);
    expect(next.rows.map((row) => row._id)).toEqual(["1"]);
    expect(next.header?.total).toBe(2);
  });

  it("answers the same page when nothing on it changed", () => {
    expect(patchDevicePage(page, "update", [device("7", "online")])).toBe(page);
  });

  it("keeps each row's own event count: a pushed device has none (ADR 025)", () => {
    const counted = { ...page, rows: [{ ...device("1", "pending"), events: 4 }] };
    const { events: _events, ...pushed } = device("1", "online");
    const next = patchDevicePage(counted, "update", [pushed]);
    expect(next.rows[0]).toMatchObject({ status: "online", events: 4 });
  });
});

describe("new events on the socket", () => {
  const alert = (id: string, deviceId: string | null, read = false) => ({
    _id: id,
    create_time: 0,
    device_time: null,
    level: "info",
    kind: "router_started",
    message: "",
    details: {},
    author_id: null,
    read,
    device: deviceId ? { _id: deviceId, ident: `R${deviceId}` } : null,
  });

  it("count per router only the unread ones that have a router", () => {
    const counts = unreadEventsByDevice({
      type: "alerts",
      content: [alert("1", "1"), alert("2", "1"), alert("3", "2", true), alert("4", null), { bad: 1 }],
    });
    expect([...counts]).toEqual([["1", 2]]);
  });

  it("raise the rows' own counts, and leave a page without those routers as it is", () => {
    const page = {
      header: null,
      rows: [device("1", "online"), device("2", "online")],
      facets: null,
      isComplete: true,
    };
    const next = addDeviceEvents(page, new Map([["1", 2]]));
    expect(next.rows.map((row) => row.events)).toEqual([2, 0]);
    expect(next.rows[1]).toBe(page.rows[1]);
    expect(addDeviceEvents(page, new Map([["9", 1]]))).toBe(page);
  });
});
