import type { RolloutDryRun } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import { rolloutFigures } from "./rolloutConfirm";

const router = (id: string, domain: string) => ({
  _id: id,
  ident: id.toUpperCase(),
  domain_id: domain,
  model: "RUT955",
  firmware: "1.0",
});

describe("rolloutFigures", () => {
  it("counts the routers of every stage and those waiting, their domains, and the canary", () => {
    const plan = {
      version: "2.0",
      stages: [[router("a", "d1")], [router("b", "d1"), router("c", "d2")]],
      waiting: [{ ...router("e", "d3"), reason: "roaming" }],
      skipped: [{ ...router("f", "d4"), reason: "model" }],
      domains: [
        { _id: "d1", name: "one", routers: 2, auto_accept: true },
        { _id: "d2", name: "two", routers: 1, auto_accept: false },
        { _id: "d3", name: "three", routers: 1, auto_accept: false },
      ],
    } as unknown as RolloutDryRun;
    expect(rolloutFigures(plan)).toEqual({ routers: 4, domains: 3, first: 1, asked: 2 });
  });

  it("answers zeros for a plan that takes nothing", () => {
    const empty = {
      version: "2.0",
      stages: [],
      waiting: [],
      skipped: [],
      domains: [],
    } as unknown as RolloutDryRun;
    expect(rolloutFigures(empty)).toEqual({ routers: 0, domains: 0, first: 0, asked: 0 });
  });
});
