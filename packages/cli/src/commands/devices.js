import { readFile } from "node:fs/promises";
import { CliError, EXIT } from "../exit-codes.js";
import { colourOfStatus, formatTime, paint, printJson, printTable } from "../output.js";

/** @typedef {import("../main.js").RunContext} RunContext */
/** @typedef {import("../client.js").PostAnswer<"/api/device/{dev_id}/edit">} Device */

/**
 * The routers of a list request, from the NDJSON answer (header line, then one router a line).
 * @param {import("../client.js").Client} client
 * @param {Record<string, unknown>} request
 * @returns {Promise<{ total: number; devices: Device[] }>}
 */
async function listDevices(client, request) {
  const lines = /** @type {Record<string, unknown>[]} */ (await client.postLines("/api/devices", request));
  const failure = lines.find((line) => typeof line.code === "string" && typeof line.message === "string");
  if (failure) throw new CliError(EXIT.UNAVAILABLE, `${failure.code}: ${failure.message}`);
  const header = lines.find((line) => typeof line.total === "number");
  const devices = /** @type {Device[]} */ (lines.filter((line) => typeof line.ident === "string"));
  return { total: Number(header?.total ?? devices.length), devices };
}

/**
 * A router's id from its id or its ident (what people type).
 * @param {import("../client.js").Client} client
 * @param {string} idOrIdent
 */
export async function resolveDeviceId(client, idOrIdent) {
  const { devices } = await listDevices(client, { search: idOrIdent, size: 100 });
  const match = devices.find((device) => device.ident === idOrIdent || device._id === idOrIdent);
  if (match) return match._id;
  if (/^[0-9a-f-]{36}$/i.test(idOrIdent)) return idOrIdent;
  throw new CliError(EXIT.NOT_FOUND, `No router ${idOrIdent}`, "DEVICE_NOT_FOUND");
}

/** @param {RunContext} context */
async function list({ out, client, values }) {
  const request = {
    size: Number(values.limit ?? 100),
    ...(typeof values.search === "string" ? { search: values.search } : {}),
    ...(Array.isArray(values.tag) ? { tags: values.tag } : {}),
  };
  const { total, devices } = await listDevices(await client(), request);
  if (out.isJson) {
    printJson(out, { total, devices });
    return EXIT.OK;
  }
  const rows = devices.map((device) => [
    device.ident,
    device.status,
    device.board.model ?? "—",
    device.firmware ?? "—",
    formatTime(device.time),
    device.tags.join(","),
  ]);
  printTable(out, ["IDENT", "STATUS", "MODEL", "FIRMWARE", "LAST CONTACT", "TAGS"], rows, (column, cell) =>
    column === 1 ? paint(out, colourOfStatus(cell.trim()), cell) : cell,
  );
  out.stderr.write(`${devices.length} of ${total}\n`);
  return EXIT.OK;
}

/** @param {RunContext} context */
async function show({ out, client, args }) {
  const target = args[0];
  if (!target) throw new CliError(EXIT.USAGE, "usage: cellfleet devices show IDENT");
  const api = await client();
  const detail = await api.post("/api/device/{dev_id}", { dev_id: await resolveDeviceId(api, target) });
  if (out.isJson) {
    printJson(out, detail);
    return EXIT.OK;
  }
  const { device } = detail;
  const pairs = [
    ["Ident", device.ident],
    ["Status", paint(out, colourOfStatus(device.status), device.status)],
    ["Description", device.description || "—"],
    ["Model", device.board.model ?? "—"],
    ["Firmware", device.firmware ?? "—"],
    ["Serial", device.serial ?? "—"],
    ["Last contact", formatTime(device.time)],
    ["Tags", device.tags.join(", ") || "—"],
    ["Unread events", String(device.events)],
  ];
  for (const [label, value] of pairs)
    out.stdout.write(`${paint(out, "bold", (label ?? "").padEnd(14))}${value}\n`);
  return EXIT.OK;
}

/** @param {RunContext} context */
async function add({ out, client, values }) {
  if (typeof values.csv !== "string")
    throw new CliError(EXIT.USAGE, "usage: cellfleet devices add --csv FILE");
  let text;
  try {
    text = await readFile(values.csv, "utf8");
  } catch (error) {
    throw new CliError(EXIT.USAGE, `Cannot read ${values.csv}: ${/** @type {Error} */ (error).message}`);
  }
  const result = await (await client()).post("/api/devices/bulk", {}, { text });
  if (out.isJson) printJson(out, result);
  else {
    printTable(
      out,
      ["LINE", "IDENT", "RESULT"],
      result.results.map((line) => [String(line.line), line.ident, line.result]),
      (column, cell) => (column === 2 ? paint(out, colourOfStatus(cell.trim()), cell) : cell),
    );
    out.stderr.write(`${result.created} created, ${result.failed} refused\n`);
  }
  return result.failed > 0 ? EXIT.PARTIAL : EXIT.OK;
}

/** @type {Record<string, import("../main.js").CommandSpec>} */
export const deviceCommands = {
  "devices list": {
    summary: "The routers, filtered by search text or tags",
    usage: "devices list [--search TEXT] [--tag TAG]… [--limit N]",
    options: {
      search: { type: "string" },
      tag: { type: "string", multiple: true },
      limit: { type: "string" },
    },
    run: list,
  },
  "devices show": { summary: "One router by ident (or id)", usage: "devices show IDENT", run: show },
  "devices add": {
    summary: "Add routers from a CSV file: ident[,description[,tags;…[,key]]] a line",
    usage: "devices add --csv FILE",
    options: { csv: { type: "string" } },
    run: add,
  },
};
