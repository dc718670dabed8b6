import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { createRouterState } from "./device";
import { Random } from "./random";
import { routerBackup, routerJournal } from "./router-files";

const now = 1_767_225_600_000;

describe("what a simulated router uploads", () => {
  it("makes a backup of tens of kilobytes that a tar reader can list", () => {
    for (let n = 1; n <= 20; n++) {
      const state = createRouterState(`SIM${String(n).padStart(6, "0")}`, new Random(n), now);
      const backup = routerBackup(state);
      expect(backup.byteLength).toBeGreaterThan(8 * 1024);
      expect(backup.byteLength).toBeLessThan(200 * 1024);
      const tar = gunzipSync(backup);
      expect(tar.length % 512).toBe(0);
      expect(tar.subarray(0, 100).toString("utf8").replace(/\0+$/, "")).toBe("etc/config/network");
    }
  });

  it("sends the identical backup while the configuration is unchanged, another once it changed", () => {
    const state = createRouterState("SIM000007", new Random(7), now);
    const first = Buffer.from(routerBackup(state));
    expect(Buffer.from(routerBackup({ ...state, cpuLoad: state.cpuLoad + 10 })).equals(first)).toBe(true);
    expect(Buffer.from(routerBackup({ ...state, firmware: `${state.firmware}-new` })).equals(first)).toBe(
      false,
    );
  });

  it("makes a journal of hundreds of kilobytes of log lines, different each time", () => {
    const state = createRouterState("SIM000003", new Random(3), now - 3_600_000);
    const journal = routerJournal(state, now);
    expect(journal.byteLength).toBeGreaterThan(100 * 1024);
    expect(journal.byteLength).toBeLessThan(2 * 1024 * 1024);
    const text = new TextDecoder().decode(journal);
    expect(text.split("\n").length).toBeGreaterThan(2000);
    expect(text).toContain(state.hostname);
    expect(Buffer.from(routerJournal(state, now + 60_000)).equals(Buffer.from(journal))).toBe(false);
  });
});
