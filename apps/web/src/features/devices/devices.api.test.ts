import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../app/i18n";
import { sessionStore } from "../../app/session/sessionStore";
import { TEST_USER, testDevice } from "../../test/fixtures";
import { type DeviceListPage, getDeviceList } from "./devices.api";

const facets = {
  status: { critical: 0, warning: 0, pending: 3, online: 0 },
  signal: { cellEdge: 0, midCell: 0, normal: 0, excellent: 3, unknown: 0 },
  network_mode: [],
  model: [],
  version: [],
  backups: { with: 0, without: 3 },
  journals: { with: 0, without: 3 },
  file_type: [],
  tags: [],
  events: { with: 0, without: 3 },
};

/** An NDJSON answer arriving in the given pieces, each a list of lines. */
function chunked(pieces: unknown[][]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const lines of pieces) {
        controller.enqueue(encoder.encode(lines.map((line) => `${JSON.stringify(line)}\n`).join("")));
      }
      controller.close();
    },
  });
  return new Response(body, { headers: { "Content-Type": "application/x-ndjson" } });
}

describe("getDeviceList", () => {
  beforeAll(() => setLocale("en"));
  beforeEach(() => sessionStore.set(TEST_USER));
  afterEach(() => vi.unstubAllGlobals());

  it("reports one snapshot per piece of the answer, not one per line, and answers the whole page", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () =>
        chunked([
          [{ total: 3, page: 0, size: 10 }, testDevice(1), testDevice(2)],
          [testDevice(3), { facets }],
        ]),
      ),
    );
    const snapshots: DeviceListPage[] = [];
    const page = await getDeviceList({ page: 0, size: 10 }, (snapshot) => snapshots.push(snapshot));
    expect(snapshots.map((snapshot) => snapshot.rows.length)).toEqual([2, 3]);
    expect(snapshots[0]?.header?.total).toBe(3);
    expect(snapshots.every((snapshot) => !snapshot.isComplete)).toBe(true);
    expect(page.rows.map((row) => row.ident)).toEqual(["R0001", "R0002", "R0003"]);
    expect(page.facets).toEqual(facets);
    expect(page.isComplete).toBe(true);
  });
});
