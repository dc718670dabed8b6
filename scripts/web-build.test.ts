import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildWebIfChanged, STAMP_FILE } from "./web-build.mjs";

// npm start's build step (issue 27): built once, again only when what the build reads changed.

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

async function put(root: string, file: string, text: string) {
  await mkdir(dirname(join(root, file)), { recursive: true });
  await writeFile(join(root, file), text);
}

async function fakeRepo() {
  const root = await mkdtemp(join(tmpdir(), "cf-web-build-"));
  roots.push(root);
  await put(root, "apps/web/src/main.tsx", "render()");
  await put(root, "apps/web/index.html", "<div id=root>");
  await put(root, "packages/contract/src/index.ts", "export {}");
  await put(root, "package-lock.json", "{}");
  return root;
}

describe("buildWebIfChanged", () => {
  it("builds the first time, not again while nothing changed, and again after a source or the contract changed", async () => {
    const root = await fakeRepo();
    await mkdir(join(root, dirname(STAMP_FILE)), { recursive: true });
    let builds = 0;
    const run = () =>
      buildWebIfChanged(root, {
        build: () => {
          builds++;
        },
      });
    expect(await run()).toBe(true);
    expect(await run()).toBe(false);
    expect(await run()).toBe(false);
    expect(builds).toBe(1);
    await put(root, "apps/web/src/main.tsx", "render(<App />)");
    expect(await run()).toBe(true);
    await put(root, "packages/contract/src/new.ts", "export const x = 1");
    expect(await run()).toBe(true);
    expect(await run()).toBe(false);
    expect(builds).toBe(3);
  });

  it("does not rebuild for a changed test file, and does when forced", async () => {
    const root = await fakeRepo();
    await mkdir(join(root, dirname(STAMP_FILE)), { recursive: true });
    const run = (force = false) => buildWebIfChanged(root, { force, build: () => undefined });
    expect(await run()).toBe(true);
    await put(root, "apps/web/src/main.test.tsx", "it()");
    expect(await run()).toBe(false);
    expect(await run(true)).toBe(true);
  });
});
