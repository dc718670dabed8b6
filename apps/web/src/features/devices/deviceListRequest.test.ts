import type { Device } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import { initialListState } from "../../components/list-card";
import { toDeviceListRequest } from "./deviceListRequest";
import { patchDevicePage } from "./useDeviceLiveUpdates";

const device = (id: string, status: Device["status"]): Device => ({
  _id: id,
  ident: `R${id}`,
  description: "",
  tags: [],
  board: { model: null },
  firmware: null,
  serial: null,
  time: null,
  status,
  events: 0,
  signal: { csq: null, quality: "unknown" },
  network_mode: null,
  wan_up: null,
  has_backups: false,
  has_journals: false,
  has_key: false,
  create_time: 0,
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
});
