import { describe, expect, it } from "vitest";
import { parseCliArgs } from "./args";
import { DEFAULT_BEHAVIOUR, QUIET_BEHAVIOUR } from "./behaviour";

const keyOf = (hex: string) => hex.repeat(64);

describe("parseCliArgs", () => {
  it("fills defaults around --devices", () => {
    expect(parseCliArgs(["--devices", "25"])).toEqual({
      ok: true,
      help: false,
      options: {
        devices: 25,
        url: "mqtt://127.0.0.1:1883",
        intervalMs: 10_000,
        seed: 1,
        prefix: "SIM",
        keys: { kind: "secret", secret: "cellfleet-simulator" },
        printKeys: false,
        maxInflightPerRouter: 10,
        maxInflightTotal: 1000,
        connectRate: 200,
        behaviour: DEFAULT_BEHAVIOUR,
        summaryMs: 5000,
        commandFailRate: 0,
        commandHangRate: 0,
      },
    });
    expect(parseCliArgs(["--devices", "2", "--fail-rate", "0.1", "--hang-rate", "0.05"])).toMatchObject({
      options: { commandFailRate: 0.1, commandHangRate: 0.05 },
    });
    expect(parseCliArgs(["--devices", "2", "--fail-rate", "2"])).toMatchObject({ ok: false });
  });

  it("reads every option", () => {
    const result = parseCliArgs([
      "--devices=3",
      "--url",
      "mqtts://broker.example.com:8883",
      "--interval",
      "0.5",
      "--seed",
      "42",
      "--prefix",
      "DEMO",
      "--key",
      "ab".repeat(32),
      "--inflight",
      "2",
      "--inflight-total",
      "5",
      "--connect-rate",
      "10",
      "--events",
      "none",
      "--summary",
      "0",
    ]);
    expect(result).toMatchObject({
      ok: true,
      options: {
        devices: 3,
        url: "mqtts://broker.example.com:8883",
        intervalMs: 500,
        seed: 42,
        prefix: "DEMO",
        keys: { kind: "single", key: "AB".repeat(32) },
        maxInflightPerRouter: 2,
        maxInflightTotal: 5,
        connectRate: 10,
        behaviour: QUIET_BEHAVIOUR,
        summaryMs: 0,
      },
    });
  });

  it("takes the device count from a keys file when --devices is left out", () => {
    expect(parseCliArgs(["--keys-file", "keys.csv"])).toMatchObject({
      ok: true,
      options: { devices: null, keys: { kind: "file", path: "keys.csv" } },
    });
  });

  it("answers help", () => {
    expect(parseCliArgs(["-h"])).toEqual({ ok: true, help: true });
    expect(parseCliArgs(["--devices", "1", "--help"])).toEqual({ ok: true, help: true });
  });

  it.each([
    [[], /--devices is required/],
    [["--devices", "0"], /--devices must be an integer from 1 to 100000, got "0"/],
    [["--devices", "1.5"], /--devices must be an integer/],
    [["--devices", "many"], /--devices must be an integer/],
    [["--devices", ""], /--devices must be an integer/],
    [["--devices", "100001"], /--devices must be an integer/],
    [["--devices", "1", "--interval", "0"], /--interval must be a number from 0.1 to 3600/],
    [["--devices", "1", "--url", "http://x"], /--url must look like mqtt:\/\/host:port/],
    [["--devices", "1", "--key", "abc"], /--key must be 64 hexadecimal characters/],
    [["--devices", "1", "--key", "A".repeat(64), "--secret", "x"], /at most one of/],
    [["--devices", "1", "--secret", ""], /--secret must not be empty/],
    [["--devices", "1", "--prefix", "SIM-"], /--prefix must be 1-58 Latin letters or digits/],
    [["--devices", "1", "--events", "loud"], /--events must be none, normal or busy/],
    [["--devices", "1", "--inflight", "0"], /--inflight must be an integer from 1 to 1000/],
    [["--devices", "1", "--verbose"], /Unknown option '--verbose'/],
    [["--devices", "1", "extra"], /unexpected argument "extra"/],
    [["--devices", "1", "--zero-touch", "nope"], /--zero-touch must be KEYID:SECRET/],
    [
      ["--devices", "1", "--zero-touch", `3f9a1c0b7e22:${"ab".repeat(32)}`, "--key", keyOf("A")],
      /at most one of/,
    ],
    [
      ["--devices", "1", "--zero-touch", `3f9a1c0b7e22:${"ab".repeat(32)}`, "--model", "a:b"],
      /--model must be/,
    ],
    [["--devices", "1", "--model", "RUT955"], /--model goes with --zero-touch/],
    [["--devices", "1", "--print-keys", "--key", keyOf("A")], /--print-keys makes new keys/],
  ])("refuses %j", (argv, message) => {
    const result = parseCliArgs(argv);
    expect(result.ok).toBe(false);
    expect(result.ok ? "" : result.error).toMatch(message);
  });
});

describe("routers into one's own domain and zero-touch runs (issue 27)", () => {
  it("reads a zero-touch key id and secret, and the model the routers claim", () => {
    const secret = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    const result = parseCliArgs([
      "--devices",
      "3",
      "--zero-touch",
      `3f9a1c0b7e22:${secret}`,
      "--model",
      "LtAP LTE6",
    ]);
    expect(result.ok && !result.help && result.options.keys).toEqual({
      kind: "zero-touch",
      join: { keyId: "3f9a1c0b7e22", secret, model: "LtAP LTE6" },
    });
  });

  it("asks for new keys to paste into the console", () => {
    const result = parseCliArgs(["--devices", "2", "--prefix", "ACME", "--print-keys"]);
    expect(result.ok && !result.help && result.options.printKeys).toBe(true);
  });
});
