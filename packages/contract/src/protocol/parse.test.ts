import { describe, expect, it } from "vitest";
import {
  COLLECT_TYPES,
  type CollectType,
  collectTopic,
  commandStatusTopic,
  commandTopic,
  EXAMPLE_BOARD,
  EXAMPLE_COMMAND,
  EXAMPLE_COMMAND_STATUS,
  EXAMPLE_ETHERNETS,
  EXAMPLE_EVENT,
  EXAMPLE_GPS,
  EXAMPLE_HELLO,
  EXAMPLE_INTERFACES,
  EXAMPLE_MODEMS,
  EXAMPLE_ROUTING,
  EXAMPLE_TUNNELS,
  eventTopic,
  helloTopic,
  MAX_PAYLOAD_BYTES,
  parseCommandMessage,
  parseDeviceMessage,
} from "./index";

// Typed by hand: the contract is compiled without DOM or Node typings.
const encoder = new (
  globalThis as unknown as { TextEncoder: new () => { encode(text: string): Uint8Array } }
).TextEncoder();
const utf8 = (text: string) => encoder.encode(text);
const bytes = (value: unknown) => utf8(JSON.stringify(value));
const ident = "SIM000042";

const collectExamples: Record<CollectType, object> = {
  board: EXAMPLE_BOARD,
  interfaces: EXAMPLE_INTERFACES,
  routing: EXAMPLE_ROUTING,
  modems: EXAMPLE_MODEMS,
  ethernets: EXAMPLE_ETHERNETS,
  tunnels: EXAMPLE_TUNNELS,
  gps: EXAMPLE_GPS,
};

describe("parseDeviceMessage", () => {
  it("reads a hello", () => {
    expect(parseDeviceMessage(helloTopic(ident), bytes(EXAMPLE_HELLO))).toEqual({
      ok: true,
      ident,
      kind: "hello",
      message: EXAMPLE_HELLO,
    });
  });

  it.each(COLLECT_TYPES)("reads collect/%s", (type) => {
    const result = parseDeviceMessage(collectTopic(ident, type), bytes(collectExamples[type]));
    expect(result).toEqual({
      ok: true,
      ident,
      kind: "collect",
      collectType: type,
      message: collectExamples[type],
    });
  });

  it("narrows collect messages by type", () => {
    const result = parseDeviceMessage(collectTopic(ident, "modems"), bytes(EXAMPLE_MODEMS));
    if (!result.ok || result.kind !== "collect" || result.collectType !== "modems")
      throw new Error("not modems");
    expect(result.message.modems[0].csq).toBe(23);
  });

  it("reads an event and a command status, from bytes or a string", () => {
    expect(parseDeviceMessage(eventTopic(ident), JSON.stringify(EXAMPLE_EVENT))).toMatchObject({
      ok: true,
      kind: "event",
      message: EXAMPLE_EVENT,
    });
    const topic = commandStatusTopic(ident, EXAMPLE_COMMAND_STATUS.id);
    expect(parseDeviceMessage(topic, bytes(EXAMPLE_COMMAND_STATUS))).toMatchObject({
      ok: true,
      kind: "command_status",
      commandId: EXAMPLE_COMMAND_STATUS.id,
    });
  });

  it("refuses a payload for the wrong collect type", () => {
    const result = parseDeviceMessage(collectTopic(ident, "modems"), bytes(EXAMPLE_BOARD));
    expect(result).toMatchObject({ ok: false, reason: "schema", ident });
    expect(result.ok ? "" : result.detail).toContain("modems");
  });

  it("refuses a command status whose id differs from the topic", () => {
    const result = parseDeviceMessage(commandStatusTopic(ident, "other1"), bytes(EXAMPLE_COMMAND_STATUS));
    expect(result).toMatchObject({ ok: false, reason: "schema", ident });
  });

  it.each([
    ["cellfleet/v1/SIM-42/hello", "bad_ident"],
    ["cellfleet/v2/SIM000042/hello", "unsupported_version"],
    ["devices/SIM000042/hello", "wrong_root"],
    ["cellfleet/v1/SIM000042/collect/weather", "unknown_collect_type"],
  ])("refuses topic %s (%s)", (topic, detail) => {
    expect(parseDeviceMessage(topic, bytes(EXAMPLE_HELLO))).toEqual({
      ok: false,
      reason: "bad_topic",
      detail,
    });
  });

  it("refuses the downward command topic as input from a device", () => {
    expect(parseDeviceMessage(commandTopic(ident), bytes(EXAMPLE_COMMAND))).toEqual({
      ok: false,
      reason: "bad_topic",
      detail: "wrong_direction",
      ident,
    });
  });

  it("refuses a payload over the limit without reading it, and takes one at the limit", () => {
    const over = new Uint8Array(MAX_PAYLOAD_BYTES + 1).fill(0x20);
    expect(parseDeviceMessage(helloTopic(ident), over)).toMatchObject({
      ok: false,
      reason: "too_large",
      ident,
    });
    const json = JSON.stringify(EXAMPLE_HELLO);
    const atLimit = json + " ".repeat(MAX_PAYLOAD_BYTES - json.length);
    expect(parseDeviceMessage(helloTopic(ident), utf8(atLimit)).ok).toBe(true);
  });

  it("counts a string payload in UTF-8 bytes", () => {
    const json = JSON.stringify({ ...EXAMPLE_EVENT, message: "Ж" });
    const padded = json + " ".repeat(MAX_PAYLOAD_BYTES - json.length); // "Ж" takes 2 bytes: one over
    expect(parseDeviceMessage(eventTopic(ident), padded)).toMatchObject({ ok: false, reason: "too_large" });
    expect(parseDeviceMessage(eventTopic(ident), "x".repeat(MAX_PAYLOAD_BYTES * 4))).toMatchObject({
      reason: "too_large",
    });
  });

  it.each([
    ["empty", new Uint8Array()],
    ["truncated JSON", utf8('{"v":1,"seq":')],
    ["plain text", utf8("hello")],
    ["invalid UTF-8", Uint8Array.from([0x7b, 0xff, 0xfe, 0x7d])],
  ])("refuses %s as not_json", (_name, payload) => {
    expect(parseDeviceMessage(helloTopic(ident), payload)).toMatchObject({
      ok: false,
      reason: "not_json",
      ident,
    });
  });

  it("skips a UTF-8 byte order mark", () => {
    const payload = Uint8Array.from([0xef, 0xbb, 0xbf, ...bytes(EXAMPLE_HELLO)]);
    expect(parseDeviceMessage(helloTopic(ident), payload)).toMatchObject({ ok: true, kind: "hello" });
  });

  it.each([
    ["null", null],
    ["an array", [EXAMPLE_HELLO]],
    ["a number", 42],
    ["an empty object", {}],
  ])("refuses %s as schema", (_name, value) => {
    expect(parseDeviceMessage(helloTopic(ident), bytes(value))).toMatchObject({
      ok: false,
      reason: "schema",
    });
  });

  it("never throws, whatever it is given", () => {
    const nasty: Array<[string, Uint8Array | string]> = [
      [helloTopic(ident), "[".repeat(100_000)],
      [helloTopic(ident), '{"__proto__":{"polluted":1},"v":1}'],
      [helloTopic(ident), "[".repeat(120_000) + "]".repeat(120_000)],
      [
        eventTopic(ident),
        `${JSON.stringify(EXAMPLE_EVENT).slice(0, -1)},"details":{"deep":${"[".repeat(9000)}${"]".repeat(9000)}}}`,
      ],
      ["\u0000", "{}"],
      ["", ""],
      [commandStatusTopic(ident, "x"), "\u0000"],
    ];
    for (const [topic, payload] of nasty) expect(() => parseDeviceMessage(topic, payload)).not.toThrow();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("parseCommandMessage", () => {
  it("reads a command on the device's command topic", () => {
    expect(parseCommandMessage(commandTopic(ident), bytes(EXAMPLE_COMMAND))).toEqual({
      ok: true,
      ident,
      command: EXAMPLE_COMMAND,
    });
  });

  it("refuses upward topics, bad JSON and bad commands", () => {
    expect(parseCommandMessage(helloTopic(ident), bytes(EXAMPLE_COMMAND))).toMatchObject({
      reason: "bad_topic",
    });
    expect(parseCommandMessage(commandTopic(ident), "nope")).toMatchObject({ reason: "not_json" });
    expect(parseCommandMessage(commandTopic(ident), bytes({ ...EXAMPLE_COMMAND, type: "x" }))).toMatchObject({
      reason: "schema",
    });
  });
});
