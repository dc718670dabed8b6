import { createHash } from "node:crypto";
import net from "node:net";
import { createRouterState, Random, routerBackup, routerJournal, transferFile } from "@cellfleet/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEVICE_FILE_STORAGES,
  type DeviceFilesFixture,
  keyOf,
  openDeviceFilesFixture,
} from "../../test/device-file-fixtures";
import { buildFile } from "../../test/file-factories";

// Simulated routers moving files through the signed URLs a command carries, over real HTTP:
// backups and journals of realistic sizes up, a firmware down, and a download whose connection
// drops half-way resumed with a Range request.

const MIB = 1024 * 1024;

/** A TCP relay to `target` that cuts the first connection after `cutAfter` bytes towards the client. */
async function startFlakyRelay(target: string, cutAfter: number) {
  const { hostname, port } = new URL(target);
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    connections += 1;
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    const isFirst = connections === 1;
    const upstream = net.connect(Number(port), hostname);
    let sent = 0;
    upstream.on("data", (chunk: Buffer) => {
      sent += chunk.length;
      if (isFirst && sent > cutAfter) {
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    client.on("data", (chunk: Buffer) => upstream.write(chunk));
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    connections: () => connections,
    // A kept-alive client connection would hold the server open: end them all.
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The same signed path at another origin (the signature covers the path and query, not the host). */
function via(origin: string, url: string): string {
  const parsed = new URL(url);
  return `${origin}${parsed.pathname}${parsed.search}`;
}

describe.each(DEVICE_FILE_STORAGES)("simulated routers and files on $name", (backend) => {
  let f: DeviceFilesFixture;
  const now = Date.now();
  beforeAll(async () => {
    f = await openDeviceFilesFixture(backend);
  });
  afterAll(async () => {
    await f.close();
  });

  it("upload a backup and a journal through their signed URLs", async () => {
    const state = createRouterState(f.device.ident, new Random(f.device.ident), now - 3_600_000);
    const backup = await f.prepareUpload("backup");
    const backupBytes = routerBackup(state);
    const sent = await transferFile(
      { ...backup, url: via(f.origin, backup.url) },
      backupBytes,
      f.t.clock.now().getTime(),
    );
    expect(sent).toMatchObject({ code: 0 });
    const journal = await f.prepareUpload("journal");
    const journalBytes = routerJournal(state, now);
    const logged = await transferFile(
      { ...journal, url: via(f.origin, journal.url) },
      journalBytes,
      f.t.clock.now().getTime(),
    );
    expect(logged).toMatchObject({ code: 0 });
    const found = await f.t.db
      .selectFrom("files")
      .select(["id", "file_type", "size", "sha256"])
      .where("id", "in", [keyOf(backup), keyOf(journal)])
      .orderBy("file_type")
      .execute();
    const rows = found.map((row) => ({ ...row, size: Number(row.size) }));
    expect(rows).toEqual([
      {
        id: keyOf(backup),
        file_type: "backup",
        size: backupBytes.byteLength,
        sha256: createHash("sha256").update(backupBytes).digest("hex"),
      },
      {
        id: keyOf(journal),
        file_type: "journal",
        size: journalBytes.byteLength,
        sha256: createHash("sha256").update(journalBytes).digest("hex"),
      },
    ]);
    expect(backupBytes.byteLength).toBeGreaterThan(8 * 1024);
    expect(journalBytes.byteLength).toBeGreaterThan(100 * 1024);
  });

  it("download a firmware, resuming with Range when the link drops half-way", async () => {
    const image = Buffer.alloc(8 * MIB);
    for (let i = 0; i < image.length; i += 4) image.writeUInt32LE((i * 2654435761) >>> 0, i);
    const firmware = await buildFile(f.t, f.domainId, {
      fileType: "firmware",
      filename: "RUT9_R_00.07.08.bin",
      bytes: image,
    });
    const file = await f.prepareDownload({ fileId: firmware });
    const relay = await startFlakyRelay(f.origin, 3 * MIB);
    try {
      const progress: number[] = [];
      const outcome = await transferFile(
        { ...file, url: via(relay.origin, file.url) },
        new Uint8Array(),
        f.t.clock.now().getTime(),
        {
          onProgress: (received) => progress.push(received),
        },
      );
      expect(outcome.code, outcome.output).toBe(0);
      expect(outcome.output).toContain(`downloaded ${image.length} bytes, resumed 1 time(s)`);
      expect(relay.connections()).toBe(2);
      // The second request continued where the first stopped, not from the start.
      const restart = progress.findIndex((received, i) => i > 0 && received < (progress[i - 1] ?? 0));
      expect(restart).toBe(-1);
    } finally {
      await relay.close();
    }
  }, 60_000);

  it("fail a download whose SHA-256 does not match, and a URL another router was given", async () => {
    const firmware = await buildFile(f.t, f.domainId, { fileType: "firmware", bytes: Buffer.from("image") });
    const file = await f.prepareDownload({ fileId: firmware });
    const tampered = await transferFile(
      { ...file, url: via(f.origin, file.url), sha256: "0".repeat(64) },
      new Uint8Array(),
      f.t.clock.now().getTime(),
    );
    expect(tampered).toMatchObject({ code: 75, output: "SHA-256 mismatch" });
    const upload = await f.prepareUpload("backup", { deviceId: f.otherDevice.id });
    const stolen = via(f.origin, upload.url).replace(f.otherDevice.id, f.device.id);
    const refused = await transferFile(
      { ...upload, url: stolen },
      new Uint8Array([1, 2, 3]),
      f.t.clock.now().getTime(),
    );
    expect(refused).toMatchObject({ code: 75, output: "HTTP 401 from PUT" });
  });
});
