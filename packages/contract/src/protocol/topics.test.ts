import { describe, expect, it } from "vitest";
import {
  buildDeviceTopic,
  COLLECT_TYPES,
  canDevicePublish,
  canDeviceSubscribe,
  collectTopic,
  commandStatusTopic,
  commandTopic,
  type DeviceTopic,
  eventTopic,
  helloTopic,
  identOfClientId,
  noticeTopic,
  parseDeviceTopic,
  publisherClientId,
  unsupportedTopicReason,
} from "./index";

const ident = "RUT955A1";

describe("topic builders", () => {
  it("spell the topics of the protocol", () => {
    expect(helloTopic(ident)).toBe("cellfleet/v1/RUT955A1/hello");
    expect(collectTopic(ident, "modems")).toBe("cellfleet/v1/RUT955A1/collect/modems");
    expect(eventTopic(ident)).toBe("cellfleet/v1/RUT955A1/event");
    expect(commandStatusTopic(ident, "cmd-1_a")).toBe("cellfleet/v1/RUT955A1/command/cmd-1_a/status");
    expect(commandTopic(ident)).toBe("cellfleet/v1/RUT955A1/command");
  });
});

describe("parseDeviceTopic", () => {
  const topics: DeviceTopic[] = [
    { direction: "up", ident, channel: "hello" },
    ...COLLECT_TYPES.map(
      (collectType): DeviceTopic => ({ direction: "up", ident, channel: "collect", collectType }),
    ),
    { direction: "up", ident, channel: "event" },
    { direction: "up", ident, channel: "command_status", commandId: "0123456789abcdef" },
    { direction: "down", ident, channel: "command" },
    { direction: "down", ident, channel: "notice" },
  ];

  it("answers each topic of a run, the same one twice in a row and one refused between included", () => {
    const run = [topics[1], topics[1], topics[2], null, topics[1], topics[0], topics[0], null, topics[2]];
    for (const topic of run) {
      if (topic === null) expect(parseDeviceTopic(`cellfleet/v1/${ident}/collect/wifi`).ok).toBe(false);
      else expect(parseDeviceTopic(buildDeviceTopic(topic))).toEqual({ ok: true, topic });
    }
  });

  it.each(topics)("round-trips $channel", (topic) => {
    expect(parseDeviceTopic(buildDeviceTopic(topic))).toEqual({ ok: true, topic });
  });

  it.each([
    ["", "wrong_root"],
    ["cellfleet", "wrong_root"],
    ["other/v1/RUT955A1/hello", "wrong_root"],
    ["/cellfleet/v1/RUT955A1/hello", "wrong_root"],
    ["Cellfleet/v1/RUT955A1/hello", "wrong_root"],
    ["cellfleet/x1/RUT955A1/hello", "wrong_root"],
    ["cellfleet/v2/RUT955A1/hello", "unsupported_version"],
    ["cellfleet/v1", "bad_ident"],
    ["cellfleet/v1//hello", "bad_ident"],
    ["cellfleet/v1/abc/hello", "bad_ident"],
    ["cellfleet/v1/RUT-955/hello", "bad_ident"],
    ["cellfleet/v1/+/hello", "bad_ident"],
    ["cellfleet/v1/#", "bad_ident"],
    [`cellfleet/v1/${"A".repeat(65)}/hello`, "bad_ident"],
    ["cellfleet/v1/RUT955A1/Юникод", "unknown_channel"],
    ["cellfleet/v1/RUT955A1", "unknown_channel"],
    ["cellfleet/v1/RUT955A1/", "unknown_channel"],
    ["cellfleet/v1/RUT955A1/hello/", "unknown_channel"],
    ["cellfleet/v1/RUT955A1/hello/extra", "unknown_channel"],
    ["cellfleet/v1/RUT955A1/collect", "unknown_channel"],
    ["cellfleet/v1/RUT955A1/collect/modems/1", "unknown_channel"],
    ["cellfleet/v1/RUT955A1/collect/+", "unknown_collect_type"],
    ["cellfleet/v1/RUT955A1/collect/Modems", "unknown_collect_type"],
    ["cellfleet/v1/RUT955A1/collect/wifi", "unknown_collect_type"],
    ["cellfleet/v1/RUT955A1/command/x/state", "unknown_channel"],
    ["cellfleet/v1/RUT955A1/command//status", "bad_command_id"],
    ["cellfleet/v1/RUT955A1/command/a.b/status", "bad_command_id"],
    [`cellfleet/v1/RUT955A1/command/${"a".repeat(65)}/status`, "bad_command_id"],
    [`cellfleet/v1/RUT955A1/${"x".repeat(300)}`, "too_long"],
  ])("refuses %j as %s", (topic, reason) => {
    expect(parseDeviceTopic(topic)).toEqual({ ok: false, reason });
  });

  it("accepts idents at the length bounds only", () => {
    expect(parseDeviceTopic(helloTopic("abcd")).ok).toBe(true);
    expect(parseDeviceTopic(helloTopic("A".repeat(64))).ok).toBe(true);
    expect(parseDeviceTopic(helloTopic("abc")).ok).toBe(false);
  });
});

describe("device ACL", () => {
  it("lets a device publish only upward topics under its own ident", () => {
    expect(canDevicePublish(ident, helloTopic(ident))).toBe(true);
    expect(canDevicePublish(ident, collectTopic(ident, "board"))).toBe(true);
    expect(canDevicePublish(ident, commandStatusTopic(ident, "c1"))).toBe(true);
    expect(canDevicePublish(ident, helloTopic("OTHER0001"))).toBe(false);
    expect(canDevicePublish(ident, commandTopic(ident))).toBe(false);
    expect(canDevicePublish(ident, "cellfleet/v1/RUT955A1/collect/#")).toBe(false);
  });

  it("lets a device subscribe only to its own command and notice topics, spelled out", () => {
    expect(canDeviceSubscribe(ident, commandTopic(ident))).toBe(true);
    expect(canDeviceSubscribe(ident, noticeTopic(ident))).toBe(true);
    expect(canDeviceSubscribe(ident, noticeTopic("OTHER0001"))).toBe(false);
    expect(canDevicePublish(ident, noticeTopic(ident))).toBe(false);
    expect(canDeviceSubscribe(ident, commandTopic("OTHER0001"))).toBe(false);
    expect(canDeviceSubscribe(ident, "cellfleet/v1/+/command")).toBe(false);
    expect(canDeviceSubscribe(ident, "cellfleet/v1/RUT955A1/#")).toBe(false);
    expect(canDeviceSubscribe(ident, "#")).toBe(false);
    expect(canDeviceSubscribe("bad-ident", "cellfleet/v1/bad-ident/command")).toBe(false);
  });
});

describe("unsupportedTopicReason", () => {
  it("names a device's own topics of another version or a channel this server does not know", () => {
    expect(unsupportedTopicReason(ident, `cellfleet/v2/${ident}/hello`)).toBe("unsupported_version");
    expect(unsupportedTopicReason(ident, `cellfleet/v1/${ident}/collect/wifi`)).toBe("unsupported_topic");
    expect(unsupportedTopicReason(ident, `cellfleet/v1/${ident}/telemetry/x`)).toBe("unsupported_topic");
  });

  it("is null for known topics, another device's, wildcards and other roots", () => {
    expect(unsupportedTopicReason(ident, helloTopic(ident))).toBeNull();
    expect(unsupportedTopicReason(ident, commandTopic(ident))).toBeNull();
    expect(unsupportedTopicReason(ident, "cellfleet/v1/OTHER0001/collect/wifi")).toBeNull();
    expect(unsupportedTopicReason(ident, `cellfleet/v2/${ident}/#`)).toBeNull();
    expect(unsupportedTopicReason(ident, `cellfleet/vx/${ident}/hello`)).toBeNull();
    expect(unsupportedTopicReason(ident, `other/v1/${ident}/hello`)).toBeNull();
    expect(unsupportedTopicReason(ident, `cellfleet/v1/${ident}/command/bad id/status`)).toBeNull();
    expect(unsupportedTopicReason(ident, `cellfleet/v2/${ident}/${"x".repeat(300)}`)).toBeNull();
  });
});

describe("a device's publishing connection (ADR 030)", () => {
  it("is the ident with -p, and reads back as the ident", () => {
    expect(publisherClientId("RUT000123")).toBe("RUT000123-p");
    expect(identOfClientId("RUT000123-p")).toBe("RUT000123");
    expect(identOfClientId("RUT000123")).toBe("RUT000123");
  });

  it("answers any other client id unchanged", () => {
    for (const clientId of [
      "RUT000123-q",
      "-p",
      "ab-p",
      "RUT-000123-p",
      "cellfleet-server-p",
      `${"A".repeat(65)}-p`,
    ])
      expect(identOfClientId(clientId)).toBe(clientId);
  });
});
