import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  BoardCollectSchema,
  CommandMessageSchema,
  CommandStatusMessageSchema,
  DeviceEventMessageSchema,
  EthernetsCollectSchema,
  EXAMPLE_BACKUP_COMMAND,
  EXAMPLE_BOARD,
  EXAMPLE_COMMAND,
  EXAMPLE_COMMAND_STATUS,
  EXAMPLE_ETHERNETS,
  EXAMPLE_EVENT,
  EXAMPLE_HELLO,
  EXAMPLE_INTERFACES,
  EXAMPLE_MODEMS,
  EXAMPLE_ROUTING,
  EXAMPLE_TUNNELS,
  HelloMessageSchema,
  InterfacesCollectSchema,
  ModemsCollectSchema,
  RoutingCollectSchema,
  TunnelsCollectSchema,
} from "./index";

type Sample = Record<string, unknown>;
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The sample with one field changed (or removed when the value is undefined). */
function withField(sample: object, key: string, value: unknown): Sample {
  const copy = clone(sample) as Sample;
  if (value === undefined) delete copy[key];
  else copy[key] = value;
  return copy;
}

/** The sample with one field of the first list item changed. */
function withItemField(sample: object, list: string, key: string, value: unknown): Sample {
  const copy = clone(sample) as Sample;
  const items = copy[list] as Sample[];
  items[0] = withField(items[0], key, value);
  return copy;
}

const cases: Array<{ name: string; schema: z.ZodType; sample: object }> = [
  { name: "hello", schema: HelloMessageSchema, sample: EXAMPLE_HELLO },
  { name: "collect/board", schema: BoardCollectSchema, sample: EXAMPLE_BOARD },
  { name: "collect/interfaces", schema: InterfacesCollectSchema, sample: EXAMPLE_INTERFACES },
  { name: "collect/routing", schema: RoutingCollectSchema, sample: EXAMPLE_ROUTING },
  { name: "collect/modems", schema: ModemsCollectSchema, sample: EXAMPLE_MODEMS },
  { name: "collect/ethernets", schema: EthernetsCollectSchema, sample: EXAMPLE_ETHERNETS },
  { name: "collect/tunnels", schema: TunnelsCollectSchema, sample: EXAMPLE_TUNNELS },
  { name: "event", schema: DeviceEventMessageSchema, sample: EXAMPLE_EVENT },
  { name: "command", schema: CommandMessageSchema, sample: EXAMPLE_COMMAND },
  { name: "command with a file", schema: CommandMessageSchema, sample: EXAMPLE_BACKUP_COMMAND },
  { name: "command status", schema: CommandStatusMessageSchema, sample: EXAMPLE_COMMAND_STATUS },
];

describe.each(cases)("$name", ({ schema, sample }) => {
  it("accepts the realistic sample unchanged", () => {
    expect(schema.parse(JSON.parse(JSON.stringify(sample)))).toEqual(sample);
  });

  it("ignores unknown fields (forward compatibility)", () => {
    const result = schema.safeParse(withField(sample, "added_in_a_later_agent", 1));
    expect(result.success).toBe(true);
    expect(result.data).not.toHaveProperty("added_in_a_later_agent");
  });

  it.each([
    ["v", 2],
    ["v", "1"],
    ["v", undefined],
    ["seq", -1],
    ["seq", 1.5],
    ["seq", "7"],
    ["seq", undefined],
    ["ts", -1],
    ["ts", 5_000_000_000_000],
    ["ts", undefined],
  ])("refuses %s = %j", (key, value) => {
    expect(schema.safeParse(withField(sample, key, value)).success).toBe(false);
  });

  it("refuses non-objects", () => {
    for (const value of [null, [], "hello", 1, true]) expect(schema.safeParse(value).success).toBe(false);
  });
});

describe("field rules", () => {
  it.each<[string, object, string, string, unknown]>([
    ["hello without a model", EXAMPLE_HELLO, "", "model", undefined],
    ["hello with 9 modems", EXAMPLE_HELLO, "", "modem_count", 9],
    ["hello with a long model", EXAMPLE_HELLO, "", "model", "x".repeat(129)],
    ["board with negative uptime", EXAMPLE_BOARD, "", "uptime", -5],
    ["board with cpu above 100", EXAMPLE_BOARD, "", "cpu_load", 101],
    ["board with temperature as text", EXAMPLE_BOARD, "", "temperature", "41C"],
    ["interface of unknown kind", EXAMPLE_INTERFACES, "interfaces", "kind", "wifi"],
    ["interface in state 'on'", EXAMPLE_INTERFACES, "interfaces", "state", "on"],
    ["interface with bad ipv4", EXAMPLE_INTERFACES, "interfaces", "ipv4", "10.0.0.256"],
    ["interface with bad mac", EXAMPLE_INTERFACES, "interfaces", "mac", "00:1E:42:2A:3B"],
    ["interface with negative rx", EXAMPLE_INTERFACES, "interfaces", "rx", -1],
    ["route with bad destination", EXAMPLE_ROUTING, "routes", "destination", "default"],
    ["route with negative metric", EXAMPLE_ROUTING, "routes", "metric", -1],
    ["route without is_default", EXAMPLE_ROUTING, "routes", "is_default", undefined],
    ["modem in state 2", EXAMPLE_MODEMS, "modems", "state", 2],
    ["modem in state '1'", EXAMPLE_MODEMS, "modems", "state", "1"],
    ["modem in mode 'LTE-A'", EXAMPLE_MODEMS, "modems", "mode", "LTE-A"],
    ["modem on SIM 0", EXAMPLE_MODEMS, "modems", "sim", 0],
    ["modem with a short IMEI", EXAMPLE_MODEMS, "modems", "imei", "86675804"],
    ["modem with letters in ICCID", EXAMPLE_MODEMS, "modems", "iccid", "89701021234567890AB"],
    ["modem with a long IMSI", EXAMPLE_MODEMS, "modems", "imsi", "2500212345678901"],
    ["modem with rsrp above bounds", EXAMPLE_MODEMS, "modems", "rsrp", -20],
    ["modem with rsrq below bounds", EXAMPLE_MODEMS, "modems", "rsrq", -41],
    ["modem with sinr above bounds", EXAMPLE_MODEMS, "modems", "sinr", 51],
    ["modem with rssi above 0", EXAMPLE_MODEMS, "modems", "rssi", 3],
    ["modem with csq 32", EXAMPLE_MODEMS, "modems", "csq", 32],
    ["modem with signal 101", EXAMPLE_MODEMS, "modems", "signal", 101],
    ["modem without imei field", EXAMPLE_MODEMS, "modems", "imei", undefined],
    ["port with link 'yes'", EXAMPLE_ETHERNETS, "ports", "link", "yes"],
    ["port with duplex 'auto'", EXAMPLE_ETHERNETS, "ports", "duplex", "auto"],
    ["tunnel of kind 'ssh'", EXAMPLE_TUNNELS, "tunnels", "kind", "ssh"],
    ["tunnel with service 'running '", EXAMPLE_TUNNELS, "tunnels", "service", "running "],
    ["event of a server kind", EXAMPLE_EVENT, "", "kind", "user_reset_password"],
    ["event of unknown kind", EXAMPLE_EVENT, "", "kind", "SIM switched"],
    ["event of level 'debug'", EXAMPLE_EVENT, "", "level", "debug"],
    ["event with empty message", EXAMPLE_EVENT, "", "message", ""],
    ["event with a details list", EXAMPLE_EVENT, "", "details", [1, 2]],
    ["command of unknown type", EXAMPLE_COMMAND, "", "type", "format_disk"],
    ["command with a slash in its id", EXAMPLE_COMMAND, "", "id", "a/b"],
    ["command with nested args", EXAMPLE_COMMAND, "", "args", { script: { nested: true } }],
    ["status in state 'done'", EXAMPLE_COMMAND_STATUS, "", "state", "done"],
    ["completed status without a code", EXAMPLE_COMMAND_STATUS, "", "code", null],
    ["status with a fractional code", EXAMPLE_COMMAND_STATUS, "", "code", 0.5],
    ["status with huge output", EXAMPLE_COMMAND_STATUS, "", "output", "x".repeat(64 * 1024 + 1)],
  ])("refuses %s", (_name, sample, list, key, value) => {
    const bad = list === "" ? withField(sample, key, value) : withItemField(sample, list, key, value);
    const schemaFor = cases.find((entry) => entry.sample === sample)?.schema;
    expect(schemaFor?.safeParse(bad).success).toBe(false);
  });

  it("takes null LTE measurements for a 3G modem and csq 99 for unknown", () => {
    const modem = {
      ...EXAMPLE_MODEMS.modems[0],
      mode: "3G",
      rsrp: null,
      rsrq: null,
      sinr: null,
      csq: 99,
    };
    expect(ModemsCollectSchema.safeParse({ ...EXAMPLE_MODEMS, modems: [modem] }).success).toBe(true);
  });

  it("takes a modem without a SIM and a router without modems", () => {
    const modem = {
      ...EXAMPLE_MODEMS.modems[0],
      state: 0,
      iccid: null,
      imsi: null,
      operator: null,
      ip: null,
    };
    expect(ModemsCollectSchema.safeParse({ ...EXAMPLE_MODEMS, modems: [modem] }).success).toBe(true);
    expect(ModemsCollectSchema.safeParse({ ...EXAMPLE_MODEMS, modems: [] }).success).toBe(true);
  });

  it("refuses two main modems, duplicate modem ids and more than 8 modems", () => {
    const main = EXAMPLE_MODEMS.modems[0];
    const second = { ...main, id: "2-1" };
    expect(ModemsCollectSchema.safeParse({ ...EXAMPLE_MODEMS, modems: [main, second] }).success).toBe(false);
    const backup = { ...second, primary: false };
    expect(ModemsCollectSchema.safeParse({ ...EXAMPLE_MODEMS, modems: [main, backup] }).success).toBe(true);
    expect(
      ModemsCollectSchema.safeParse({ ...EXAMPLE_MODEMS, modems: [main, { ...main, primary: false }] })
        .success,
    ).toBe(false);
    const nine = Array.from({ length: 9 }, (_, i) => ({ ...backup, id: `m${i}` }));
    expect(ModemsCollectSchema.safeParse({ ...EXAMPLE_MODEMS, modems: nine }).success).toBe(false);
  });

  it("refuses two default routes and over-long lists", () => {
    const route = EXAMPLE_ROUTING.routes[0];
    expect(RoutingCollectSchema.safeParse({ ...EXAMPLE_ROUTING, routes: [route, route] }).success).toBe(
      false,
    );
    const many = Array.from({ length: 1025 }, () => ({ ...route, is_default: false }));
    expect(RoutingCollectSchema.safeParse({ ...EXAMPLE_ROUTING, routes: many }).success).toBe(false);
    const ports = Array.from({ length: 65 }, (_, i) => ({ ...EXAMPLE_ETHERNETS.ports[1], name: `p${i}` }));
    expect(EthernetsCollectSchema.safeParse({ ...EXAMPLE_ETHERNETS, ports }).success).toBe(false);
  });

  it("refuses an event with more than 32 detail keys", () => {
    const details = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, i]));
    expect(DeviceEventMessageSchema.safeParse({ ...EXAMPLE_EVENT, details }).success).toBe(false);
  });

  it("fills an event's missing details with {}", () => {
    const { details: _omitted, ...rest } = EXAMPLE_EVENT;
    expect(DeviceEventMessageSchema.parse(rest).details).toEqual({});
  });

  it("asks a shell command for a script and a file command for the right transfer", () => {
    expect(CommandMessageSchema.safeParse({ ...EXAMPLE_COMMAND, args: {} }).success).toBe(false);
    expect(CommandMessageSchema.safeParse({ ...EXAMPLE_COMMAND, type: "reboot", args: {} }).success).toBe(
      true,
    );
    const download = { ...EXAMPLE_BACKUP_COMMAND, type: "fw_update" };
    expect(CommandMessageSchema.safeParse(download).success).toBe(false);
    const withGet = { ...download, file: { ...EXAMPLE_BACKUP_COMMAND.file, method: "GET" } };
    expect(CommandMessageSchema.safeParse(withGet).success).toBe(true);
    const { file: _file, ...noFile } = EXAMPLE_BACKUP_COMMAND;
    expect(CommandMessageSchema.safeParse(noFile).success).toBe(false);
    const ftp = { ...EXAMPLE_BACKUP_COMMAND, file: { ...EXAMPLE_BACKUP_COMMAND.file, url: "ftp://x/y" } };
    expect(CommandMessageSchema.safeParse(ftp).success).toBe(false);
    const badHash = { ...withGet, file: { ...withGet.file, sha256: "ABC" } };
    expect(CommandMessageSchema.safeParse(badHash).success).toBe(false);
  });

  it("lets accepted and running statuses carry no code", () => {
    const base = { ...EXAMPLE_COMMAND_STATUS, output: "" };
    expect(CommandStatusMessageSchema.safeParse({ ...base, state: "accepted", code: null }).success).toBe(
      true,
    );
    expect(
      CommandStatusMessageSchema.safeParse({ ...base, state: "running", code: null, progress: 40 }).success,
    ).toBe(true);
    expect(CommandStatusMessageSchema.safeParse({ ...base, state: "running", code: 0 }).success).toBe(false);
    expect(CommandStatusMessageSchema.safeParse({ ...base, state: "failed", code: 124 }).success).toBe(true);
  });
});
