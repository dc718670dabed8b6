import { parseArgs } from "node:util";
import { createClient } from "./client.js";
import { commandCommands } from "./commands/commands.js";
import { completionScript } from "./commands/completion.js";
import { deviceCommands } from "./commands/devices.js";
import { exportSection, rolloutStatus, uploadFile } from "./commands/files.js";
import { login } from "./commands/login.js";
import { readConfig } from "./config.js";
import { CliError, EXIT } from "./exit-codes.js";
import { createOutput } from "./output.js";

// `cellfleet <group> <command> [arguments] [--json]`: one table of commands, each with its options,
// read by the parser, the help text and the shell completion alike.

/**
 * @typedef {{ type: "string" | "boolean"; multiple?: boolean; short?: string }} OptionSpec
 * @typedef {import("./output.js").Output} Output
 * @typedef {import("./client.js").Client} Client
 * @typedef {{ out: Output; client: () => Promise<Client>; io: Io; values: Record<string, unknown>; args: string[] }} RunContext
 * @typedef {{ summary: string; usage: string; options?: Record<string, OptionSpec>; run: (context: RunContext) => Promise<number> }} CommandSpec
 * @typedef {{ stdout: import("./output.js").Stream; stderr: import("./output.js").Stream; stdin: NodeJS.ReadableStream & { isTTY?: boolean }; env: NodeJS.ProcessEnv }} Io
 */

/** @type {Record<string, CommandSpec>} */
export const COMMANDS = {
  login: {
    summary: "Save the console's address and an API token (made on the profile page)",
    usage: "login --url URL [--token TOKEN]   (without --token: read from CELLFLEET_TOKEN or stdin)",
    options: { url: { type: "string" }, token: { type: "string" } },
    run: login,
  },
  ...deviceCommands,
  ...commandCommands,
  "files upload": {
    summary: "Upload a file, firmware or package, with a progress bar",
    usage: "files upload FILE [--kind file|firmware|package]",
    options: { kind: { type: "string" } },
    run: uploadFile,
  },
  export: {
    summary: "A list as CSV: devices, events, commands, files, users, logs …",
    usage: "export SECTION [--out FILE]",
    options: { out: { type: "string", short: "o" } },
    run: exportSection,
  },
  "rollout status": {
    summary: "The latest rollout of a software rule, stage by stage",
    usage: "rollout status RULE_ID",
    run: rolloutStatus,
  },
  completion: {
    summary: "A shell completion script: bash, zsh or fish",
    usage: "completion bash|zsh|fish   (e.g. `source <(cellfleet completion bash)`)",
    run: async ({ io, args }) => {
      io.stdout.write(completionScript(args[0] ?? "bash", Object.keys(COMMANDS)));
      return EXIT.OK;
    },
  },
};

/** @param {Io} io */
function printHelp(io) {
  const lines = ["cellfleet: the Cellfleet console from a terminal or a script", "", "Commands:"];
  for (const [name, spec] of Object.entries(COMMANDS)) lines.push(`  ${name.padEnd(18)}${spec.summary}`);
  lines.push("", "Every command takes --json (one JSON document on stdout) and --help.");
  lines.push("Exit codes: 0 ok, 1 unexpected, 2 usage, 3 not signed in or token invalid/expired,");
  lines.push("4 forbidden, 5 not found, 6 refused input, 7 console unreachable or failing, 8 partly failed.");
  io.stdout.write(`${lines.join("\n")}\n`);
}

/**
 * The command named by the first one or two words.
 * @param {string[]} argv
 * @returns {{ name: string; rest: string[] } | null}
 */
function findCommand(argv) {
  const two = argv.slice(0, 2).join(" ");
  if (COMMANDS[two]) return { name: two, rest: argv.slice(2) };
  const one = argv[0] ?? "";
  if (COMMANDS[one]) return { name: one, rest: argv.slice(1) };
  return null;
}

/**
 * Runs one command line; answers the exit code (never throws).
 * @param {string[]} argv
 * @param {Io} io
 * @returns {Promise<number>}
 */
export async function main(argv, io) {
  if (argv.length === 0 || argv[0] === "--help" || argv[0] === "-h" || argv[0] === "help") {
    printHelp(io);
    return argv.length === 0 ? EXIT.USAGE : EXIT.OK;
  }
  const found = findCommand(argv);
  if (!found) {
    io.stderr.write(`cellfleet: unknown command "${argv.slice(0, 2).join(" ")}" (cellfleet --help)\n`);
    return EXIT.USAGE;
  }
  const spec = /** @type {CommandSpec} */ (COMMANDS[found.name]);
  let parsed;
  try {
    parsed = parseArgs({
      args: found.rest,
      allowPositionals: true,
      options: { json: { type: "boolean" }, help: { type: "boolean", short: "h" }, ...spec.options },
    });
  } catch (error) {
    io.stderr.write(
      `cellfleet ${found.name}: ${/** @type {Error} */ (error).message}\nusage: cellfleet ${spec.usage}\n`,
    );
    return EXIT.USAGE;
  }
  if (parsed.values.help) {
    io.stdout.write(`${spec.summary}\nusage: cellfleet ${spec.usage}\n`);
    return EXIT.OK;
  }
  const out = createOutput(io, parsed.values.json === true);
  const client = async () => {
    const config = await readConfig(io.env);
    if (!config) throw new CliError(EXIT.AUTH, "Not signed in: run `cellfleet login --url URL` first");
    return createClient(config);
  };
  try {
    return await spec.run({ out, client, io, values: parsed.values, args: parsed.positionals });
  } catch (error) {
    if (error instanceof CliError) {
      if (out.isJson)
        io.stdout.write(
          `${JSON.stringify({ error: { code: error.code ?? null, message: error.message } })}\n`,
        );
      io.stderr.write(`cellfleet ${found.name}: ${error.message}\n`);
      return error.exitCode;
    }
    io.stderr.write(
      `cellfleet ${found.name}: unexpected error: ${/** @type {Error} */ (error).stack ?? error}\n`,
    );
    return EXIT.UNEXPECTED;
  }
}
