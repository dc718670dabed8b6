import { describe, expect, it } from "vitest";
import type { DeviceImportTarget } from "../devices/devices.repo";
import { parsePosition, planImport } from "./device-import.plan";

const NO_LIMIT = { domain: null, licence: null };
const rows = (...lines: string[][]) => lines.map((fields, index) => ({ line: index + 1, fields }));

describe("parsePosition", () => {
  it("reads lat,lng in degrees, with a comma, a semicolon or spaces", () => {
    expect(parsePosition("55.75,37.61")).toEqual({ latitude: 55.75, longitude: 37.61 });
    expect(parsePosition(" -33.9 ; 151.2 ")).toEqual({ latitude: -33.9, longitude: 151.2 });
    expect(parsePosition("59.9 30.3")).toEqual({ latitude: 59.9, longitude: 30.3 });
  });

  it("refuses what is not a point on the earth", () => {
    for (const text of ["91,0", "0,181", "north", "1,2,3", "1", "1e999,0"])
      expect(parsePosition(text), text).toBeUndefined();
  });
});

describe("planImport", () => {
  it("reads a headerless file in the order ident, key, tags, description, position", () => {
    const plan = planImport(rows(["ROUTER0001", "generate", "north", "Gate", "1,2"]), {
      targets: new Map(),
      taken: new Set(),
      room: NO_LIMIT,
    });
    expect(plan.creates).toEqual([
      {
        line: 1,
        ident: "ROUTER0001",
        key: "generate",
        tags: ["north"],
        description: "Gate",
        position: { latitude: 1, longitude: 2 },
      },
    ]);
  });

  it("leaves a router's field alone for an empty cell, and changes it for a different one", () => {
    const target: DeviceImportTarget = {
      id: "id-1",
      ident: "ROUTER0002",
      description: "Gate",
      tags: ["north"],
      latitude: null,
      longitude: null,
      key_md5: "d41d8cd98f00b204e9800998ecf8427e",
    };
    const facts = {
      targets: new Map([[target.ident, target]]),
      taken: new Set([target.ident]),
      room: { domain: 0, licence: 0 },
    };
    const header = ["ident", "description", "tags"];
    expect(planImport(rows(header, ["ROUTER0002", "", ""]), facts).answer.rows[0]).toMatchObject({
      outcome: "unchanged",
    });
    expect(
      planImport(rows(header, ["ROUTER0002", "Gate", "north;south"]), facts).answer.rows[0],
    ).toMatchObject({
      outcome: "change",
      fields: ["tags"],
    });
  });

  it("gives another plan id to another file and the same to the same", () => {
    const facts = { targets: new Map(), taken: new Set<string>(), room: NO_LIMIT };
    const first = planImport(rows(["ROUTER0003", "", "", "A"]), facts).answer.plan;
    expect(planImport(rows(["ROUTER0003", "", "", "A"]), facts).answer.plan).toBe(first);
    expect(planImport(rows(["ROUTER0003", "", "", "B"]), facts).answer.plan).not.toBe(first);
  });
});
