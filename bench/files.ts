// File throughput (apps/server/src/modules/files): uploads and downloads through the server against
// writing and reading the same bytes on the same disk directly, paired round by round in one run.
// Figures and how to read them: bench/README.md, "Files".
import { type ChildProcess, fork } from "node:child_process";
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import http from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";

const MIB = 1024 * 1024;
const SIZE = Number(process.env.BENCH_FILE_MB ?? 24) * MIB;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const here = path.dirname(fileURLToPath(import.meta.url));

/** 1 MiB of a pattern that does not compress, handed out in 64 KiB slices: the same source for every path. */
const PATTERN = Buffer.alloc(MIB);
for (let i = 0; i < MIB; i += 4) PATTERN.writeUInt32LE((i * 2654435761) >>> 0, i);
function source(bytes: number): Readable {
  async function* chunks() {
    for (let sent = 0; sent < bytes; sent += 64 * 1024) {
      const offset = sent % MIB;
      yield PATTERN.subarray(offset, offset + Math.min(64 * 1024, bytes - sent));
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

interface Ready {
  port: number;
  token: string;
  filesDir: string;
}
interface CommandFile {
  url: string;
}

function request(
  url: string,
  method: string,
  headers: Record<string, string | number>,
  body: Readable | null,
): Promise<{ status: number; bytes: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(url, { method, headers }, (response) => {
      let bytes = 0;
      let text = "";
      response.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        if (text.length < 4096) text += chunk.toString("utf8");
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, bytes, text }));
      response.on("error", reject);
    });
    outgoing.on("error", reject);
    if (body) body.pipe(outgoing);
    else outgoing.end();
  });
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}

const mbps = (bytes: number, ms: number) => bytes / MIB / (ms / 1000);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

const dir = mkdtempSync(path.join(tmpdir(), "cellfleet-bench-files-"));
const child: ChildProcess = fork(path.join(here, "files-server.ts"), [], {
  env: { ...process.env, BENCH_DIR: dir },
  execArgv: ["--import", "tsx"],
  stdio: "inherit",
});
const ready = await new Promise<Ready>((resolve) =>
  child.once("message", (message) => resolve(message as Ready)),
);
const base = `http://127.0.0.1:${ready.port}`;
let nextId = 1;
function prepare(kind: "upload" | "download", fileId?: string): Promise<CommandFile> {
  const id = nextId++;
  return new Promise((resolve) => {
    const listener = (message: unknown) => {
      const answer = message as { id: number; file: CommandFile };
      if (answer.id !== id) return;
      child.off("message", listener);
      resolve(answer.file);
    };
    child.on("message", listener);
    child.send({ prepare: kind, fileId, id });
  });
}
const local = (url: string) => {
  const parsed = new URL(url);
  return `${base}${parsed.pathname}${parsed.search}`;
};

const BOUNDARY = "----cellfleet-bench";
function multipart(name: string, bytes: number): { stream: Readable; length: number } {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  async function* body() {
    yield head;
    for await (const chunk of source(bytes)) yield chunk as Buffer;
    yield tail;
  }
  return { stream: Readable.from(body()), length: head.length + bytes + tail.length };
}

const results: Record<string, number[]> = {};
const record = (name: string, ms: number) => {
  results[name] ??= [];
  results[name].push(mbps(SIZE, ms));
};

console.log(
  `files benchmark: ${SIZE / MIB} MiB a file, ${ROUNDS} rounds, ${cpus().length} CPUs, load ${loadavg()[0].toFixed(1)}`,
);
for (let round = 0; round < ROUNDS; round++) {
  // Writes: the disk directly (write, fsync, as the storage does), the console's upload, a router's PUT.
  const directPath = path.join(dir, `direct-${round}.bin`);
  const write = await timed(async () => {
    await pipeline(source(SIZE), createWriteStream(directPath));
    const handle = await open(directPath, "r+");
    await handle.sync();
    await handle.close();
  });
  record("write: disk directly", write.ms);

  const body = multipart(`bench-${round}.dat`, SIZE);
  const upload = await timed(() =>
    request(
      `${base}/api/file/file`,
      "POST",
      {
        token: ready.token,
        "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
        "content-length": body.length,
      },
      body.stream,
    ),
  );
  if (upload.value.status !== 200)
    throw new Error(`upload answered ${upload.value.status}: ${upload.value.text}`);
  record("write: POST /api/file/file (multipart)", upload.ms);
  const fileId = (JSON.parse(upload.value.text) as { _id: string })._id;

  const slot = await prepare("upload");
  const put = await timed(() =>
    request(
      local(slot.url),
      "PUT",
      { "content-type": "application/octet-stream", "content-length": SIZE },
      source(SIZE),
    ),
  );
  if (put.value.status !== 200) throw new Error(`PUT answered ${put.value.status}: ${put.value.text}`);
  record("write: router PUT /api/transfer (signed URL)", put.ms);

  // Reads: the same file read directly, downloaded by a person, downloaded by a router.
  const read = await timed(async () => {
    let bytes = 0;
    for await (const chunk of createReadStream(directPath)) bytes += (chunk as Buffer).length;
    return bytes;
  });
  record("read: disk directly", read.ms);
  const download = await timed(() =>
    request(`${base}/api/file/${fileId}`, "GET", { token: ready.token }, null),
  );
  if (download.value.bytes !== SIZE) throw new Error(`download gave ${download.value.bytes} bytes`);
  record("read: GET /api/file/{id}", download.ms);
  const grant = await prepare("download", fileId);
  const get = await timed(() => request(local(grant.url), "GET", {}, null));
  if (get.value.bytes !== SIZE) throw new Error(`router GET gave ${get.value.bytes} bytes`);
  record("read: router GET /api/transfer (signed URL)", get.ms);
  rmSync(directPath, { force: true });
}

const baseline = (name: string) =>
  name.startsWith("write") ? "write: disk directly" : "read: disk directly";
console.log("\n| path | MB/s median (min–max) | ÷ disk directly (median of rounds) |");
console.log("| --- | ---: | ---: |");
for (const [name, values] of Object.entries(results)) {
  const base = results[baseline(name)] as number[];
  const ratios = values.map((value, i) => value / (base[i] as number));
  const spread = `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
  console.log(`| ${name} | ${median(values).toFixed(0)} (${spread}) | ${median(ratios).toFixed(2)} |`);
}
child.send("stop");
await new Promise((resolve) => child.once("exit", resolve));
rmSync(dir, { recursive: true, force: true });
