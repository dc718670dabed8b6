import { readFile } from "node:fs/promises";
import { type CliOptions, parseCliArgs, USAGE } from "./args";
import { Fleet, type FleetKeys, type FleetStats, fleetIdent } from "./fleet";
import { bulkAddLines, parseKeysFile, randomDeviceKey } from "./keys";

function summaryLine(stats: FleetStats): string {
  const time = new Date().toISOString().slice(11, 19);
  return (
    `[${time}] connected ${stats.connected}/${stats.devices}  published ${stats.published}  acked ${stats.acked}` +
    `  in-flight ${stats.inflight}  queued ${stats.queued}  retried ${stats.retried}  dropped ${stats.dropped}` +
    `  commands ${stats.commands}  reboots ${stats.reboots}`
  );
}

function keysText(keys: CliOptions["keys"]): string {
  if (keys.kind === "file") return `from ${keys.path}`;
  if (keys.kind === "single") return "--key";
  if (keys.kind === "zero-touch")
    return `by zero-touch (key id ${keys.join.keyId}, model ${keys.join.model})`;
  return "derived from the fleet secret";
}

async function main(): Promise<number> {
  const parsed = parseCliArgs(process.argv.slice(2));
  if (!parsed.ok) {
    console.error(`simulate: ${parsed.error}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.help) {
    console.log(USAGE);
    return 0;
  }
  const options = parsed.options;
  if (options.printKeys) {
    const count = options.devices ?? 0;
    const idents = Array.from({ length: count }, (_, i) => fleetIdent(options.prefix, i + 1));
    console.log(bulkAddLines(idents.map((ident) => ({ ident, key: randomDeviceKey() }))));
    return 0;
  }
  let keys: FleetKeys;
  let devices = options.devices;
  if (options.keys.kind === "file") {
    const entries = parseKeysFile(await readFile(options.keys.path, "utf8"));
    if (entries.length === 0) throw new Error(`${options.keys.path} lists no devices`);
    keys = { kind: "list", entries };
    devices ??= entries.length;
  } else {
    keys = options.keys;
  }
  const fleet = new Fleet({
    url: options.url,
    devices: devices ?? 0,
    prefix: options.prefix,
    seed: options.seed,
    intervalMs: options.intervalMs,
    keys,
    maxInflightPerRouter: options.maxInflightPerRouter,
    maxInflightTotal: options.maxInflightTotal,
    connectRate: options.connectRate,
    behaviour: options.behaviour,
    commandFailRate: options.commandFailRate,
    commandHangRate: options.commandHangRate,
  });
  console.log(
    `simulate: ${devices} routers → ${options.url}, every ${options.intervalMs / 1000} s, seed ${options.seed}` +
      `, keys ${keysText(options.keys)}`,
  );
  const summary =
    options.summaryMs > 0
      ? setInterval(() => console.log(summaryLine(fleet.stats())), options.summaryMs)
      : null;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`simulate: ${signal}, stopping`);
    if (summary) clearInterval(summary);
    await fleet.stop();
    console.log(summaryLine(fleet.stats()));
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
  await fleet.start();
  return -1; // keep running until a signal
}

main().then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    console.error(`simulate: ${(error as Error).message}`);
    process.exit(1);
  },
);
