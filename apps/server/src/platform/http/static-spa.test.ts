import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/test-app";

describe("serving the built web app", () => {
  let t: TestApp;
  let distDir: string;
  beforeAll(async () => {
    distDir = mkdtempSync(path.join(tmpdir(), "cf-dist-"));
    mkdirSync(path.join(distDir, "assets"));
    writeFileSync(
      path.join(distDir, "index.html"),
      "<!doctype html><title>Cellfleet</title><div id=root></div>",
    );
    writeFileSync(path.join(distDir, "assets", "index-3f9a1c.js"), "console.log('app')");
    writeFileSync(path.join(distDir, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
    t = await createTestApp({ webDistDir: distDir, seed: false });
  });
  afterAll(async () => {
    await t.close();
    rmSync(distDir, { recursive: true, force: true });
  });

  it("answers a client route like /dashboard with index.html, never cached", async () => {
    for (const url of ["/dashboard", "/device/abc123", "/"]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers["content-type"]).toMatch(/text\/html/);
      expect(response.body).toContain("<title>Cellfleet</title>");
      expect(response.headers["cache-control"]).toBe("no-cache");
    }
  });

  it("serves hashed assets with a long cache", async () => {
    const response = await t.app.inject({ method: "GET", url: "/assets/index-3f9a1c.js" });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe("console.log('app')");
    expect(response.headers["cache-control"]).toMatch(/max-age=31536000.*immutable/);
  });

  it("serves other files without a long cache", async () => {
    const response = await t.app.inject({ method: "GET", url: "/favicon.svg" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-cache");
  });

  it("serves files added after start, as a rebuild of the web app adds them", async () => {
    writeFileSync(path.join(distDir, "assets", "index-new777.js"), "console.log('rebuilt')");
    const response = await t.app.inject({ method: "GET", url: "/assets/index-new777.js" });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe("console.log('rebuilt')");
  });

  it("answers a directory path without a server error", async () => {
    for (const url of ["/assets", "/assets/"]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBeLessThan(500);
    }
  });

  it("answers a missing file with 404 rather than the app", async () => {
    const response = await t.app.inject({ method: "GET", url: "/assets/missing-123.js" });
    expect(response.statusCode).toBe(404);
  });

  it("keeps /api paths JSON", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/dashboard" });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe("OPERATION_IS_NOT_SUPPORTED");
  });
});

describe("without a built web app", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ webDistDir: path.join(tmpdir(), "cf-no-such-dist"), seed: false });
  });
  afterAll(async () => {
    await t.close();
  });

  it("answers pages with a plain text hint to run npm run build", async () => {
    const response = await t.app.inject({ method: "GET", url: "/dashboard" });
    expect(response.statusCode).toBe(503);
    expect(response.headers["content-type"]).toMatch(/text\/plain/);
    expect(response.body).toContain("npm run build");
  });

  it("still answers the API", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(response.statusCode).toBe(200);
  });
});
