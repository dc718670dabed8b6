// Routers from a file (issue 31, ADR 042): a CSV of 10,000 routers checked (the dry run) and
// applied on PostgreSQL, then the same routers changed by a second file, against the seeded server
// of bench/bench-server.ts (its own process). Target: check + apply under 10 s.
//
// npm run bench:import -w bench   (BENCH_IMPORT_ROWS BENCH_DEVICES BENCH_ENGINES=postgres BENCH_DATABASE_URL)
import { loadavg } from "node:os";
import { benchToken, startBenchServer } from "./bench-server";

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 10_000);
const DEVICES = Number(process.env.BENCH_DEVICES ?? 10_000);
const ENGINES = (process.env.BENCH_ENGINES ?? "postgres").split(",").map((e) => e.trim()) as Array<
  "postgres" | "pglite"
>;

/** A CSV of the bench's routers: every key generated, every router with a position and tags. */
function importCsv(description: string): string {
  const lines = ["ident,key,tags,description,position"];
  for (let i = 0; i < ROWS; i++) {
    const ident = `IMPORT${String(i).padStart(7, "0")}`;
    const position = `${(50 + (i % 1000) / 100).toFixed(4)},${(30 + Math.floor(i / 1000) / 10).toFixed(4)}`;
    lines.push(`${ident},generate,imported;batch${i % 10},${description} ${i},"${position}"`);
  }
  return `${lines.join("\r\n")}\r\n`;
}

async function post(baseUrl: string, token: string, path: string, csv: string) {
  const form = new FormData();
  form.append("file", new Blob([csv], { type: "text/csv" }), "routers.csv");
  const started = performance.now();
  const response = await fetch(`${baseUrl}${path}`, { method: "POST", headers: { token }, body: form });
  const body = (await response.json()) as Record<string, unknown>;
  const ms = performance.now() - started;
  if (response.status !== 200)
    throw new Error(`${path} answered ${response.status}: ${JSON.stringify(body)}`);
  return { ms, body };
}

for (const engine of ENGINES) {
  console.log(`\n${engine}: seeding ${DEVICES} routers and starting…`);
  const server = await startBenchServer({ engine, devices: DEVICES, name: "cf_bench_import" });
  try {
    const token = await benchToken(server);
    console.log("| file | rows | check ms | apply ms | total s | created | changed | keys |");
    console.log("|---|--:|--:|--:|--:|--:|--:|--:|");
    for (const [label, csv] of [
      ["new routers", importCsv("Imported")],
      ["the same routers changed", importCsv("Changed")],
    ] as const) {
      const check = await post(server.baseUrl, token, "/api/devices/import/check", csv);
      const apply = await post(
        server.baseUrl,
        token,
        `/api/devices/import/${check.body.plan as string}`,
        csv,
      );
      const keys = (apply.body.keys as unknown[]).length;
      console.log(
        `| ${label} | ${ROWS} | ${check.ms.toFixed(0)} | ${apply.ms.toFixed(0)} | ${((check.ms + apply.ms) / 1000).toFixed(2)} | ${apply.body.create} | ${apply.body.change} | ${keys} |`,
      );
    }
    console.log(
      `load average (1, 5, 15 min): ${loadavg()
        .map((load) => load.toFixed(2))
        .join(", ")}`,
    );
  } finally {
    await server.stop();
  }
}
