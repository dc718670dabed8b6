import { parseArgs } from "node:util";
import { isHexKey } from "@cellfleet/contract";
import { type BehaviourRates, DEFAULT_BEHAVIOUR, QUIET_BEHAVIOUR } from "./behaviour";
import { DEFAULT_FLEET_SECRET } from "./keys";

/** Usage text of `npm run simulate`. */
export const USAGE = `Usage: npm run simulate -- --devices N [options]

Runs N virtual routers that speak the Cellfleet device protocol (docs/device-protocol.md).

Options:
  --devices N          routers to run, 1-100000 (default with --keys-file: every line)
  --url URL            broker, mqtt:// or mqtts:// (default mqtt://127.0.0.1:1883)
  --interval S         seconds between collect rounds, 0.1-3600 (default 10)
  --seed N             seed of every random choice, an integer (default 1)
  --prefix P           ident prefix, Latin letters and digits (default SIM): SIM000001, ...
  --secret S           fleet secret the keys are derived from (default "${DEFAULT_FLEET_SECRET}")
  --key HEX            one 64-hex AES key for every router instead
  --keys-file F        IDENT,KEY lines (or the console's IDENT,,,KEY add-many lines); the
                       routers are the file's devices
  --print-keys         print N routers with new random keys as lines for the console's
                       "add many" form, then exit: paste them, then run with --keys-file
  --zero-touch ID:SECRET
                       join by the zero-touch configuration with this key id and secret
                       (as its page shows them once): the routers are new to the console
  --model M            the model zero-touch routers claim (default RUT955)
  --inflight N         unacknowledged publishes per router, 1-1000 (default 10)
  --inflight-total N   unacknowledged publishes in total, 1-100000 (default 1000)
  --connect-rate N     routers started per second (default 200)
  --events MODE        none, normal or busy (10x normal) random happenings (default normal)
  --summary S          seconds between summary lines, 0 for none (default 5)
  --fail-rate P        chance a command fails (code 1), 0-1 (default 0)
  --hang-rate P        chance a command is accepted and never finishes, 0-1 (default 0)
  -h, --help           this text`;

/** What the command line asked for. */
export interface CliOptions {
  devices: number | null;
  url: string;
  intervalMs: number;
  seed: number;
  prefix: string;
  keys:
    | { kind: "secret"; secret: string }
    | { kind: "single"; key: string }
    | { kind: "file"; path: string }
    | { kind: "zero-touch"; join: { keyId: string; secret: string; model: string } };
  /** Print the routers as add-many lines with random keys, and exit. */
  printKeys: boolean;
  maxInflightPerRouter: number;
  maxInflightTotal: number;
  connectRate: number;
  behaviour: BehaviourRates;
  summaryMs: number;
  commandFailRate: number;
  commandHangRate: number;
}

/** Result of {@link parseCliArgs}. */
export type CliParseResult =
  | { ok: true; help: true }
  | { ok: true; help: false; options: CliOptions }
  | { ok: false; error: string };

function numberOption(
  name: string,
  raw: string | undefined,
  fallback: number,
  { min, max, integer }: { min: number; max: number; integer: boolean },
): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (
    raw.trim() === "" ||
    !Number.isFinite(value) ||
    (integer && !Number.isInteger(value)) ||
    value < min ||
    value > max
  ) {
    throw new Error(
      `--${name} must be ${integer ? "an integer" : "a number"} from ${min} to ${max}, got "${raw}"`,
    );
  }
  return value;
}

/** Reads and checks the command line; never throws. */
export function parseCliArgs(argv: string[]): CliParseResult {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        devices: { type: "string" },
        url: { type: "string" },
        interval: { type: "string" },
        seed: { type: "string" },
        prefix: { type: "string" },
        secret: { type: "string" },
        key: { type: "string" },
        "keys-file": { type: "string" },
        "print-keys": { type: "boolean" },
        "zero-touch": { type: "string" },
        model: { type: "string" },
        inflight: { type: "string" },
        "inflight-total": { type: "string" },
        "connect-rate": { type: "string" },
        events: { type: "string" },
        summary: { type: "string" },
        "fail-rate": { type: "string" },
        "hang-rate": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
    if (values.help) return { ok: true, help: true };
    if (positionals.length > 0) throw new Error(`unexpected argument "${positionals[0]}"`);

    const keySources = [values.secret, values.key, values["keys-file"], values["zero-touch"]].filter(
      (value) => value !== undefined,
    );
    if (keySources.length > 1)
      throw new Error("give at most one of --secret, --key, --keys-file and --zero-touch");
    let keys: CliOptions["keys"] = { kind: "secret", secret: values.secret ?? DEFAULT_FLEET_SECRET };
    if (values.secret !== undefined && values.secret === "") throw new Error("--secret must not be empty");
    if (values.key !== undefined) {
      if (!isHexKey(values.key)) throw new Error("--key must be 64 hexadecimal characters");
      keys = { kind: "single", key: values.key.toUpperCase() };
    }
    if (values["keys-file"] !== undefined) keys = { kind: "file", path: values["keys-file"] };
    if (values["zero-touch"] !== undefined) {
      const match = /^([0-9a-f]{12}):([0-9a-fA-F]{64})$/.exec(values["zero-touch"].trim());
      if (!match) throw new Error("--zero-touch must be KEYID:SECRET (12 and 64 hexadecimal characters)");
      const model = values.model ?? "RUT955";
      if (!/^[\x20-\x39\x3b-\x7e]{1,64}$/.test(model))
        throw new Error("--model must be 1-64 printable ASCII characters without ':'");
      keys = { kind: "zero-touch", join: { keyId: match[1] as string, secret: match[2] as string, model } };
    } else if (values.model !== undefined) throw new Error("--model goes with --zero-touch");
    if (values["print-keys"] && keys.kind !== "secret")
      throw new Error("--print-keys makes new keys: give none of --secret, --key, --keys-file, --zero-touch");

    if (values.devices === undefined && keys.kind !== "file") throw new Error("--devices is required");
    const devices =
      values.devices === undefined
        ? null
        : numberOption("devices", values.devices, 0, { min: 1, max: 100_000, integer: true });

    const url = values.url ?? "mqtt://127.0.0.1:1883";
    if (!/^(mqtts?|tcp|tls|wss?):\/\/[^/\s]+/.test(url)) {
      throw new Error(`--url must look like mqtt://host:port, got "${url}"`);
    }
    const prefix = values.prefix ?? "SIM";
    if (!/^[A-Za-z0-9]{1,58}$/.test(prefix)) throw new Error("--prefix must be 1-58 Latin letters or digits");

    const events = values.events ?? "normal";
    const behaviours: Record<string, BehaviourRates> = {
      none: QUIET_BEHAVIOUR,
      normal: DEFAULT_BEHAVIOUR,
      busy: Object.fromEntries(
        Object.entries(DEFAULT_BEHAVIOUR).map(([name, rate]) => [name, Math.min(1, rate * 10)]),
      ) as unknown as BehaviourRates,
    };
    const behaviour = behaviours[events];
    if (behaviour === undefined) throw new Error(`--events must be none, normal or busy, got "${events}"`);

    const seconds = (name: string, raw: string | undefined, fallback: number, min: number) =>
      Math.round(numberOption(name, raw, fallback, { min, max: 3600, integer: false }) * 1000);
    return {
      ok: true,
      help: false,
      options: {
        devices,
        url,
        intervalMs: seconds("interval", values.interval, 10, 0.1),
        seed: numberOption("seed", values.seed, 1, { min: 0, max: 2 ** 32 - 1, integer: true }),
        prefix,
        keys,
        printKeys: values["print-keys"] === true,
        maxInflightPerRouter: numberOption("inflight", values.inflight, 10, {
          min: 1,
          max: 1000,
          integer: true,
        }),
        maxInflightTotal: numberOption("inflight-total", values["inflight-total"], 1000, {
          min: 1,
          max: 100_000,
          integer: true,
        }),
        connectRate: numberOption("connect-rate", values["connect-rate"], 200, {
          min: 1,
          max: 100_000,
          integer: true,
        }),
        behaviour,
        summaryMs: values.summary === "0" ? 0 : seconds("summary", values.summary, 5, 0),
        commandFailRate: numberOption("fail-rate", values["fail-rate"], 0, {
          min: 0,
          max: 1,
          integer: false,
        }),
        commandHangRate: numberOption("hang-rate", values["hang-rate"], 0, {
          min: 0,
          max: 1,
          integer: false,
        }),
      },
    };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}
