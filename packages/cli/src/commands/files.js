import { readFile, writeFile } from "node:fs/promises";
import { basename } from "node:path";
import { CliError, EXIT } from "../exit-codes.js";
import { createProgressBar, printJson, printTable } from "../output.js";

/** @typedef {import("../main.js").RunContext} RunContext */

const UPLOAD_KINDS = ["file", "firmware", "package"];
/** The lists that export as CSV (the contract's CSV_EXPORTS), by section name. */
const EXPORT_PATHS = {
  devices: "/api/devices",
  events: "/api/events",
  commands: "/api/commands",
  files: "/api/files",
  users: "/api/users",
  domains: "/api/domains",
  rules: "/api/notifications/rules",
  logs: "/api/web_actions",
  licenses: "/api/licenses",
  firmwares: "/api/firmwares",
};

/** @param {RunContext} context */
export async function uploadFile({ out, client, args, values }) {
  const path = args[0];
  const kind = typeof values.kind === "string" ? values.kind : "file";
  if (!path || !UPLOAD_KINDS.includes(kind)) {
    throw new CliError(EXIT.USAGE, "usage: cellfleet files upload FILE [--kind file|firmware|package]");
  }
  let bytes;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new CliError(EXIT.USAGE, `Cannot read ${path}: ${/** @type {Error} */ (error).message}`);
  }
  const bar = createProgressBar(out, basename(path));
  const file = /** @type {{ _id: string; filename: string; size?: number }} */ (
    await (await client()).upload(`/api/file/${kind}`, { name: basename(path), bytes }, bar.update)
  );
  if (out.isJson) printJson(out, file);
  else out.stdout.write(`Uploaded ${file.filename} (${file._id})\n`);
  return EXIT.OK;
}

/** @param {RunContext} context */
export async function exportSection({ out, client, args, values }) {
  const section = args[0] ?? "";
  const path = EXPORT_PATHS[/** @type {keyof typeof EXPORT_PATHS} */ (section)];
  if (!path)
    throw new CliError(
      EXIT.USAGE,
      `usage: cellfleet export ${Object.keys(EXPORT_PATHS).join("|")} [--out FILE]`,
    );
  const csv = await (await client()).postText(`${path}/export`, {});
  if (typeof values.out === "string") {
    await writeFile(values.out, csv);
    if (out.isJson) printJson(out, { section, file: values.out, bytes: Buffer.byteLength(csv) });
    else out.stderr.write(`Wrote ${values.out}\n`);
  } else out.stdout.write(csv);
  return EXIT.OK;
}

/** @param {RunContext} context */
export async function rolloutStatus({ out, client, args }) {
  const ruleId = args[0];
  if (!ruleId) throw new CliError(EXIT.USAGE, "usage: cellfleet rollout status RULE_ID");
  const { rollout } = await (await client()).post("/api/software/{id}/rollouts", { id: ruleId });
  if (!rollout) throw new CliError(EXIT.NOT_FOUND, "This software rule has no rollout yet");
  if (out.isJson) {
    printJson(out, rollout);
    return EXIT.OK;
  }
  out.stdout.write(
    `Rollout ${rollout._id} of ${rollout.version}: ${rollout.status}, stage ${rollout.stage + 1} of ${rollout.stages.length}\n`,
  );
  printTable(
    out,
    ["STAGE", "WAITING", "SENT", "SUCCEEDED", "FAILED", "SKIPPED"],
    rollout.stages.map((stage, index) => [
      String(index + 1),
      ...[stage.waiting, stage.sent, stage.succeeded, stage.failed, stage.skipped].map(String),
    ]),
  );
  return EXIT.OK;
}
