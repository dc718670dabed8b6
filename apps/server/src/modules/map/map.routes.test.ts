import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDevice } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";

// Issue 31, ADR 045: the map's clusters, filtered like the device list, by the viewer's tag scope,
// counted by status, and built again after a router is pinned elsewhere.

let t: TestApp;
let domainId: string;
let admin: string;
let scoped: string;
let stranger: string;
let pinned: { id: string; ident: string };

const WORLD = [-180, -85, 180, 85];

async function post(token: string | null, url: string, payload: object) {
  const response = await t.app.inject({
    method: "POST",
    url,
    headers: token === null ? {} : { token },
    payload,
  });
  return { status: response.statusCode, body: response.json() };
}

const clusters = (token: string, payload: object = {}) =>
  post(token, "/api/map/clusters", { bbox: WORLD, zoom: 2, ...payload });

beforeAll(async () => {
  t = await createTestApp();
  domainId = (await buildDomain(t)).id;
  admin = await signIn(t.app, await buildUser(t, { role: 2, domainId }));
  scoped = await signIn(t.app, await buildUser(t, { role: 4, domainId, tagScope: ["north"] }));
  stranger = await signIn(t.app, await buildUser(t, { role: 2, domainId: (await buildDomain(t)).id }));
  const now = t.clock.now();
  const long = new Date(now.getTime() - 30 * 86_400_000);
  // Three online routers in Moscow (one north), one critical in Berlin (north), one never reported, one unplaced.
  for (const [index, tags] of [["north"], ["south"], ["south"]].entries())
    await buildDevice(t, domainId, {
      tags,
      last_contact: now,
      latitude: 55.75 + index / 100,
      longitude: 37.62,
    });
  pinned = await buildDevice(t, domainId, {
    tags: ["north"],
    last_contact: long,
    latitude: 52.52,
    longitude: 13.4,
    position_source: "gps",
  });
  await buildDevice(t, domainId, { tags: ["south"], latitude: 48.86, longitude: 2.35 });
  await buildDevice(t, domainId, { tags: ["north"], last_contact: now });
});
afterAll(async () => {
  await t.close();
});

describe("POST /api/map/clusters", () => {
  it("refuses the anonymous, another domain's routers stay out, and a bad viewport is 400", async () => {
    expect((await post(null, "/api/map/clusters", { bbox: WORLD, zoom: 2 })).status).toBe(401);
    expect((await clusters(stranger)).body).toEqual({ placed: 0, unplaced: 0, bounds: null, features: [] });
    expect((await clusters(admin, { bbox: [0, 0, 0, 100] })).status).toBe(400);
    expect((await clusters(admin, { zoom: 40 })).status).toBe(400);
  });

  it("clusters nearby routers with their counts by status, and places lone ones", async () => {
    const { status, body } = await clusters(admin);
    expect(status).toBe(200);
    expect(body.placed).toBe(5);
    expect(body.unplaced).toBe(1);
    expect(body.bounds).toEqual([2.35, 48.86, 37.62, 55.77]);
    const moscow = body.features.find((feature: { kind: string; count?: number }) => feature.count === 3);
    expect(moscow).toMatchObject({
      kind: "cluster",
      statuses: { online: 3, warning: 0, critical: 0, pending: 0 },
    });
    expect(moscow.expansion_zoom).toBeGreaterThan(2);
    const europe = await clusters(admin, { zoom: 5 });
    expect(europe.body.features).toContainEqual({
      kind: "router",
      id: pinned.id,
      ident: pinned.ident,
      latitude: 52.52,
      longitude: 13.4,
      status: "critical",
    });
    // At the deepest zoom every router stands alone.
    const close = await clusters(admin, { zoom: 17, bbox: [37, 55, 38, 56] });
    expect(close.body.features.map((feature: { kind: string }) => feature.kind)).toEqual([
      "router",
      "router",
      "router",
    ]);
  });

  it("keeps to the viewport and filters like the device list", async () => {
    const berlin = await clusters(admin, { bbox: [10, 50, 15, 54], zoom: 6 });
    expect(berlin.body.features.map((feature: { id: string }) => feature.id)).toEqual([pinned.id]);
    const critical = await clusters(admin, { status: ["critical"] });
    expect(critical.body.placed).toBe(1);
    const pending = await clusters(admin, { status: ["pending"], search: "" });
    expect(pending.body).toMatchObject({ placed: 1, unplaced: 0 });
    const south = await clusters(admin, { tags: ["south"] });
    expect(south.body.placed).toBe(3);
  });

  it("shows a tag-limited viewer only the routers of their tags", async () => {
    const { body } = await clusters(scoped);
    expect(body).toMatchObject({ placed: 2, unplaced: 1 });
  });

  it("answers a pinned position at once: an edit forgets the domain's cached clusters", async () => {
    expect((await clusters(admin, { bbox: [-10, 35, 0, 45], zoom: 6 })).body.features).toEqual([]);
    const edit = await post(admin, `/api/device/${pinned.id}/edit`, {
      position: { latitude: 40.42, longitude: -3.7 },
    });
    expect(edit.status).toBe(200);
    expect(edit.body.position).toEqual({ latitude: 40.42, longitude: -3.7, source: "admin" });
    const madrid = await clusters(admin, { bbox: [-10, 35, 0, 45], zoom: 6 });
    expect(madrid.body.features).toMatchObject([{ kind: "router", id: pinned.id }]);
    const cleared = await post(admin, `/api/device/${pinned.id}/edit`, { position: null });
    expect(cleared.body.position).toBeNull();
    expect((await clusters(admin)).body).toMatchObject({ placed: 4, unplaced: 2 });
  });

  it("names the tiles' style, unset in tests", async () => {
    expect((await post(admin, "/api/map/style", {})).body).toEqual({ style_url: null });
    expect((await post(null, "/api/map/style", {})).status).toBe(401);
  });

  it("refuses a pin outside the globe", async () => {
    const edit = await post(admin, `/api/device/${pinned.id}/edit`, {
      position: { latitude: 91, longitude: 0 },
    });
    expect(edit.status).toBe(400);
  });
});

describe("with MAP_STYLE_URL set", () => {
  it("names the style, and the security policy lets the map reach its origin and start its workers", async () => {
    const tiled = await createTestApp({
      config: { mapStyleUrl: "https://tiles.example.com/styles/liberty.json" },
      seed: false,
    });
    try {
      const health = await tiled.app.inject({ method: "GET", url: "/api/health" });
      const csp = String(health.headers["content-security-policy"]);
      expect(csp).toContain("connect-src 'self' ws: wss: https://tiles.example.com");
      expect(csp).toContain("img-src 'self' data: blob: https://tiles.example.com");
      expect(csp).toContain("worker-src 'self' blob:");
      // Without the setting no other origin is let in.
      const plain = String(
        (await t.app.inject({ method: "GET", url: "/api/health" })).headers["content-security-policy"],
      );
      expect(plain).toContain("connect-src 'self' ws: wss:;");
    } finally {
      await tiled.close();
    }
  });
});
