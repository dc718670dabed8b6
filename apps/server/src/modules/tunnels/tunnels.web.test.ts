import type { TunnelSession, WebTunnelOpen } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { freePort } from "../../platform/bus/bus-servers.test-support";
import type { ActionsFixture } from "../actions/actions.test-support";
import { eventually } from "../ingest/ingest.test-support";
import { openTunnelsFixture, requestTunnel, setRemoteAccessLimits } from "./tunnels.test-support";
import {
  expectNotFound,
  openWebSession,
  pathOf,
  signIn,
  testBrowser,
  upgradeEcho,
} from "./web-tunnel.test-support";

// The router's web interface through the console (ADR 038): a session of its own origin, its
// single-use link, the router's login cookie through the proxy, the console's cookies kept from
// the router, ATUN_SRV_NOT_FOUND for a link unknown, used or expired, and the session's limits.

const sessionOf = async (f: ActionsFixture, token: string, id: string) => {
  const response = await f.post(token, "/api/tunnels/list");
  return response.json<{ items: TunnelSession[] }>().items.find((item) => item._id === id);
};

describe("web interface on a port of its own", { timeout: 60_000 }, () => {
  let f: ActionsFixture;
  let admin: { id: string; token: string };
  beforeAll(async () => {
    f = await openTunnelsFixture({ minuteMs: 1000 });
    admin = await f.person("admin");
  }, 60_000);
  afterAll(async () => {
    await f.close();
  }, 60_000);

  async function openOnRouter() {
    const device = await f.device();
    await f.router(device);
    const created = await requestTunnel(f, admin.token, device.id, 30, "web");
    expect(created.kind).toBe("web");
    const link = await openWebSession(f, admin.token, created._id);
    return { device, created, link, browser: testBrowser(new URL(link.origin).host) };
  }

  it("signs in to the router's UI through the proxy, on an origin that is not the console's", async () => {
    const { device, created, link, browser } = await openOnRouter();
    expect(new URL(link.origin).origin).not.toBe(new URL(f.t.config.publicUrl).origin);
    const signedIn = await signIn(browser, link.url);
    const [setCookie] = signedIn.headers["set-cookie"] ?? [];
    // The router's Domain is dropped, its path kept, its name held to this session's prefix.
    expect(setCookie).toMatch(/^cf_[0-9a-f]{32}_sysauth=[0-9a-f]+; Path=\/; HttpOnly; SameSite=Strict$/);
    const status = await browser.request("/");
    expect(status.status).toBe(200);
    expect(status.body).toContain(device.ident);
    expect((await sessionOf(f, admin.token, created._id))?.state).toBe("open");

    // The console's cookies (all ports of a host share them) and the proxy's own never reach the router.
    browser.cookies.set("cellfleet_device", "console-secret");
    const seen = await browser.request("/cookies");
    expect(seen.body).toMatch(/^sysauth=[0-9a-f]+$/);

    await f.post(admin.token, `/api/tunnel/${created._id}/end`);
    await eventually(async () => (await sessionOf(f, admin.token, created._id))?.bytes_down !== 0, "bytes");
    const ended = await sessionOf(f, admin.token, created._id);
    expect(ended).toMatchObject({ state: "ended", end_reason: "ended_by_user", has_recording: false });
    expect(ended?.bytes_up).toBeGreaterThan(200);
    expect(ended?.bytes_down).toBeGreaterThan(500);
    await eventually(async () => {
      const after = await browser
        .request("/")
        .catch(() => ({ status: 404, body: '{"code":"ATUN_SRV_NOT_FOUND"}' }));
      return after.status === 404 && after.body.includes("ATUN_SRV_NOT_FOUND");
    }, "the ended session's origin answers ATUN_SRV_NOT_FOUND");
  });

  it("carries an upgraded connection (a WebSocket's) both ways, with the session's cookie only", async () => {
    const { link, browser } = await openOnRouter();
    expect((await browser.request(pathOf(link.url))).status).toBe(302);
    const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const upgrade = (withCookie: boolean) =>
      upgradeEcho(
        `127.0.0.1:${new URL(link.origin).port}`,
        new URL(link.origin).host,
        withCookie ? cookie : null,
      );
    const answer = await upgrade(true);
    expect(answer).toMatch(/^HTTP\/1\.1 101 /);
    expect(answer).toContain("ping-42");
    expect(await upgrade(false)).toMatch(/^HTTP\/1\.1 404 .*ATUN_SRV_NOT_FOUND/s);
  });

  it("answers ATUN_SRV_NOT_FOUND for a link unknown, used twice or expired, and without the cookie", async () => {
    const { link, browser } = await openOnRouter();
    expectNotFound(await browser.request("/"));
    expectNotFound(await browser.request("/.cellfleet-tunnel/enter?key=unknown"));
    expect((await browser.request(pathOf(link.url))).status).toBe(302);
    expectNotFound(await testBrowser(new URL(link.origin).host).request(pathOf(link.url)));

    const second = await openOnRouter();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 61_000 });
    try {
      expectNotFound(await second.browser.request(pathOf(second.link.url)));
    } finally {
      vi.useRealTimers();
    }
  });

  it("opens only the author's approved web session, and tells a router off line in the answer", async () => {
    const device = await f.device();
    const terminal = await requestTunnel(f, admin.token, device.id, 30, "terminal");
    const asTerminal = await f.post(admin.token, `/api/tunnel/${terminal._id}/web`);
    expect(asTerminal.json()).toMatchObject({ code: "ATUN_SRV_NOT_FOUND" });
    const web = await requestTunnel(f, admin.token, device.id, 30, "web");
    const other = await f.person("admin");
    expect((await f.post(other.token, `/api/tunnel/${web._id}/web`)).json()).toMatchObject({
      code: "ATUN_SRV_NOT_FOUND",
    });
    expect((await f.t.app.inject({ method: "POST", url: `/api/tunnel/${web._id}/web` })).statusCode).toBe(
      401,
    );
    const offLine = await f.post(admin.token, `/api/tunnel/${web._id}/web`);
    expect(offLine.statusCode).toBe(200);
    expect(offLine.json<WebTunnelOpen>()).toEqual({ state: "ended", code: "PEER_NOT_CONNECTED" });
  });

  it("ends the session when its byte quota is used up", async () => {
    await setRemoteAccessLimits(f, admin.token, { quota_mib: 1, bandwidth_kib: 65_536 });
    const { created, link, browser } = await openOnRouter();
    expect((await browser.request(pathOf(link.url))).status).toBe(302);
    const download = await browser.request("/download?bytes=4194304").catch(() => null);
    expect(download?.body.length ?? 0).toBeLessThan(4_194_304);
    await eventually(
      async () => (await sessionOf(f, admin.token, created._id))?.end_reason === "quota",
      "quota",
    );
    const ended = await sessionOf(f, admin.token, created._id);
    expect((ended?.bytes_up ?? 0) + (ended?.bytes_down ?? 0)).toBeGreaterThanOrEqual(1024 * 1024);
    expect(ended?.bytes_down).toBeLessThan(1024 * 1024 + 256 * 1024);
  });
});

describe("web interface on a host name of its own (TUNNEL_WEB_HOST)", { timeout: 60_000 }, () => {
  let f: ActionsFixture;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    f = await openTunnelsFixture({ webHost: { pattern: "*.tunnel.test", port } });
  }, 60_000);
  afterAll(async () => {
    await f.close();
  }, 60_000);

  it("gives each session <token>.tunnel.test, whose cookie opens no other session", async () => {
    const admin = await f.person("admin");
    const open = async () => {
      const device = await f.device();
      await f.router(device);
      const created = await requestTunnel(f, admin.token, device.id, 30, "web");
      return openWebSession(f, admin.token, created._id);
    };
    const first = await open();
    const second = await open();
    const host = new URL(first.origin).host;
    expect(host).toMatch(/^[0-9a-f]{32}\.tunnel\.test$/);
    expect(new URL(second.origin).host).not.toBe(host);
    const browser = testBrowser(`127.0.0.1:${port}`, host);
    const signedIn = await signIn(browser, first.url);
    expect(signedIn.headers["set-cookie"]?.[0]).toMatch(
      /^sysauth=[0-9a-f]+; Path=\/; HttpOnly; SameSite=Strict$/,
    );
    expect((await browser.request("/")).body).toContain("Signed in as root");

    // The same cookies sent to the second session's host open nothing there.
    const elsewhere = testBrowser(`127.0.0.1:${port}`, new URL(second.origin).host);
    for (const [name, value] of browser.cookies) elsewhere.cookies.set(name, value);
    expectNotFound(await elsewhere.request("/"));
    expectNotFound(await testBrowser(`127.0.0.1:${port}`, "unknown.tunnel.test").request("/"));
  });
});
