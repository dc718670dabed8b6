import { CliError, EXIT } from "../exit-codes.js";
import { colourOfStatus, paint, printJson, printTable } from "../output.js";
import { resolveDeviceId } from "./devices.js";

/** @typedef {import("../main.js").RunContext} RunContext */
/** @typedef {import("../client.js").PostAnswer<"/api/command/{command_id}">} Command */

/** Execution statuses nothing moves out of (the contract's FINAL_EXECUTION_STATUSES). */
const FINAL = new Set(["completed", "failed", "expired", "cancelled", "timed_out", "attempts_exceeded"]);

/** @param {Command} command */
function isFinished(command) {
  const counts = /** @type {Record<string, number>} */ (command.counts);
  const done = Object.entries(counts).reduce(
    (sum, [status, count]) => sum + (FINAL.has(status) ? count : 0),
    0,
  );
  return command.total > 0 && done >= command.total;
}

/** @param {Command} command */
function hasFailures(command) {
  const counts = /** @type {Record<string, number>} */ (command.counts);
  return Object.entries(counts).some(
    ([status, count]) => status !== "completed" && FINAL.has(status) && count > 0,
  );
}

/** @param {RunContext} context */
async function send(context) {
  const { out, client, values } = context;
  if (typeof values.type !== "string")
    throw new CliError(EXIT.USAGE, "usage: cellfleet command send --type TYPE …");
  const api = await client();
  /** @type {Record<string, string>} */
  const args = {};
  for (const pair of /** @type {string[]} */ (values.arg ?? [])) {
    const at = pair.indexOf("=");
    if (at < 1) throw new CliError(EXIT.USAGE, `--arg takes NAME=VALUE, not ${pair}`);
    args[pair.slice(0, at)] = pair.slice(at + 1);
  }
  const devices = [];
  for (const device of /** @type {string[]} */ (values.device ?? []))
    devices.push(await resolveDeviceId(api, device));
  const targets = { devices, tags: /** @type {string[]} */ (values.tag ?? []), all: values.all === true };
  if (devices.length === 0 && targets.tags.length === 0 && !targets.all) {
    throw new CliError(EXIT.USAGE, "Name the targets: --device IDENT, --tag TAG or --all");
  }
  const command = await api.post("/api/command/new", {}, { type: values.type, args, targets });
  if (values.watch === true) return watchCommand(context, command._id);
  if (out.isJson) printJson(out, command);
  else {
    const approval = command.needs_approval ? paint(out, "yellow", " (waits for approval)") : "";
    out.stdout.write(`Command ${command._id} ${command.type} to ${command.total} routers${approval}\n`);
  }
  return EXIT.OK;
}

/** @param {RunContext} context */
async function approve({ out, client, args, values }) {
  const id = args[0];
  if (!id) throw new CliError(EXIT.USAGE, "usage: cellfleet command approve COMMAND_ID [--reason TEXT]");
  const reason = typeof values.reason === "string" ? values.reason : "";
  const command = await (await client()).post(
    "/api/command/{command_id}/approve",
    { command_id: id },
    { reason },
  );
  if (out.isJson) printJson(out, command);
  else out.stdout.write(`Approved ${command._id} (${command.type}): ${command.status}\n`);
  return EXIT.OK;
}

/**
 * Polls the command and its executions until every router is done (or --timeout), printing each
 * router's status as it changes; exits PARTIAL when a router did not complete.
 * @param {RunContext} context
 * @param {string} id
 */
async function watchCommand({ out, client, values }, id) {
  const api = await client();
  const intervalMs = Math.max(0.2, Number(values.interval ?? 2)) * 1000;
  const deadline =
    values.timeout === undefined ? Number.POSITIVE_INFINITY : Date.now() + Number(values.timeout) * 1000;
  /** @type {Map<string, string>} */
  const seen = new Map();
  for (;;) {
    const command = await api.post("/api/command/{command_id}", { command_id: id });
    const executions =
      /** @type {{ device: { ident: string }; status: string; code: number | null; output: string }[]} */ (
        await api.postLines("/api/reports/", { command_id: id })
      ).filter((line) => line && typeof line === "object" && "device" in line);
    for (const execution of executions) {
      if (seen.get(execution.device.ident) === execution.status) continue;
      seen.set(execution.device.ident, execution.status);
      if (!out.isJson) {
        out.stdout.write(
          `${execution.device.ident.padEnd(20)} ${paint(out, colourOfStatus(execution.status), execution.status)}\n`,
        );
      }
    }
    const finished = isFinished(command);
    if (finished || Date.now() >= deadline) {
      if (out.isJson) printJson(out, { command, executions });
      else {
        const counts = Object.entries(/** @type {Record<string, number>} */ (command.counts));
        printTable(
          out,
          ["STATUS", "ROUTERS"],
          counts.map(([status, count]) => [status, String(count)]),
        );
      }
      if (!finished) throw new CliError(EXIT.PARTIAL, `Still running after --timeout ${values.timeout}s`);
      return hasFailures(command) ? EXIT.PARTIAL : EXIT.OK;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** @type {Record<string, import("../main.js").CommandSpec>} */
export const commandCommands = {
  "command send": {
    summary: "Send a command to routers (by ident, tag or all); --watch follows it",
    usage: "command send --type TYPE [--arg NAME=VALUE]… (--device IDENT… | --tag TAG… | --all) [--watch]",
    options: {
      type: { type: "string" },
      arg: { type: "string", multiple: true },
      device: { type: "string", multiple: true },
      tag: { type: "string", multiple: true },
      all: { type: "boolean" },
      watch: { type: "boolean" },
      interval: { type: "string" },
      timeout: { type: "string" },
    },
    run: send,
  },
  "command approve": {
    summary: "Approve a command waiting for approval",
    usage: "command approve COMMAND_ID [--reason TEXT]",
    options: { reason: { type: "string" } },
    run: approve,
  },
  "command watch": {
    summary: "Follow a command router by router until it is done (polling)",
    usage: "command watch COMMAND_ID [--interval SECONDS] [--timeout SECONDS]",
    options: { interval: { type: "string" }, timeout: { type: "string" } },
    run: async (context) => {
      const id = context.args[0];
      if (!id) throw new CliError(EXIT.USAGE, "usage: cellfleet command watch COMMAND_ID");
      return watchCommand(context, id);
    },
  },
};
