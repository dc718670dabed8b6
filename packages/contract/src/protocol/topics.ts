import { DEVICE_IDENT_MAX_LENGTH, DEVICE_IDENT_MIN_LENGTH } from "../validators/text";

/** Major version of the device protocol: the `v1` topic level and the `v` field of every message. */
export const PROTOCOL_VERSION = 1;

/** First two topic levels of every protocol topic. */
export const PROTOCOL_TOPIC_ROOT = `cellfleet/v${PROTOCOL_VERSION}`;

/** Longest topic the protocol produces or accepts; longer ones are refused before they are split. */
export const MAX_TOPIC_LENGTH = 256;

/** A device ident as the protocol carries it: Latin letters and digits, 4 to 64 of them (spec section 5). */
export const PROTOCOL_IDENT_PATTERN = new RegExp(
  `^[A-Za-z0-9]{${DEVICE_IDENT_MIN_LENGTH},${DEVICE_IDENT_MAX_LENGTH}}$`,
);

/** A command id as the protocol carries it: 1 to 64 letters, digits, `_` or `-` (never `/`, `+` or `#`). */
export const COMMAND_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** The kinds of state a device reports on `collect/{type}`. */
export const COLLECT_TYPES = [
  "board",
  "interfaces",
  "routing",
  "modems",
  "ethernets",
  "tunnels",
  "gps",
] as const;
/** One of {@link COLLECT_TYPES}. */
export type CollectType = (typeof COLLECT_TYPES)[number];

/** Whether a value is an ident the protocol accepts (no trimming: a topic level is taken as is). */
export function isProtocolIdent(value: string): boolean {
  return PROTOCOL_IDENT_PATTERN.test(value);
}

/** Whether a value is a command id the protocol accepts. */
export function isCommandId(value: string): boolean {
  return COMMAND_ID_PATTERN.test(value);
}

/** Whether a value is one of {@link COLLECT_TYPES}. */
export function isCollectType(value: string): value is CollectType {
  return (COLLECT_TYPES as readonly string[]).includes(value);
}

/** Topic a device publishes its `hello` on, after every connect. */
export function helloTopic(ident: string): string {
  return `${PROTOCOL_TOPIC_ROOT}/${ident}/hello`;
}

/** Topic a device publishes one kind of collected state on. */
export function collectTopic(ident: string, type: CollectType): string {
  return `${PROTOCOL_TOPIC_ROOT}/${ident}/collect/${type}`;
}

/** Topic a device publishes its events on. */
export function eventTopic(ident: string): string {
  return `${PROTOCOL_TOPIC_ROOT}/${ident}/event`;
}

/** Topic a device publishes the progress of one command on. */
export function commandStatusTopic(ident: string, commandId: string): string {
  return `${PROTOCOL_TOPIC_ROOT}/${ident}/command/${commandId}/status`;
}

/** Topic the server publishes commands for a device on; the device subscribes to it. */
export function commandTopic(ident: string): string {
  return `${PROTOCOL_TOPIC_ROOT}/${ident}/command`;
}

/**
 * Topic the server tells a device on why one of its messages was refused (docs/device-protocol.md
 * 4.6); a device may subscribe to it, and nothing else is published there.
 */
export function noticeTopic(ident: string): string {
  return `${PROTOCOL_TOPIC_ROOT}/${ident}/notice`;
}

/**
 * Topic the server asks a device on to dial a remote-access tunnel out to the console (`tunnel_open`,
 * docs/device-protocol.md, ADR 038); the device subscribes to it.
 */
export function tunnelTopic(ident: string): string {
  return `${PROTOCOL_TOPIC_ROOT}/${ident}/tunnel`;
}

/** A protocol topic taken apart. `up` is device → server, `down` is server → device. */
export type DeviceTopic =
  | { direction: "up"; ident: string; channel: "hello" }
  | { direction: "up"; ident: string; channel: "collect"; collectType: CollectType }
  | { direction: "up"; ident: string; channel: "event" }
  | { direction: "up"; ident: string; channel: "command_status"; commandId: string }
  | { direction: "down"; ident: string; channel: "command" }
  | { direction: "down"; ident: string; channel: "notice" }
  | { direction: "down"; ident: string; channel: "tunnel" };

/** Why a topic is not a protocol topic. */
export type TopicErrorReason =
  | "too_long"
  | "wrong_root"
  | "unsupported_version"
  | "bad_ident"
  | "unknown_channel"
  | "unknown_collect_type"
  | "bad_command_id";

/** Result of {@link parseDeviceTopic}. */
export type TopicParseResult = { ok: true; topic: DeviceTopic } | { ok: false; reason: TopicErrorReason };

/** Builds the topic a parsed topic came from; `parseDeviceTopic(buildDeviceTopic(t))` gives `t` back. */
export function buildDeviceTopic(topic: DeviceTopic): string {
  switch (topic.channel) {
    case "hello":
      return helloTopic(topic.ident);
    case "collect":
      return collectTopic(topic.ident, topic.collectType);
    case "event":
      return eventTopic(topic.ident);
    case "command_status":
      return commandStatusTopic(topic.ident, topic.commandId);
    case "command":
      return commandTopic(topic.ident);
    case "notice":
      return noticeTopic(topic.ident);
    case "tunnel":
      return tunnelTopic(topic.ident);
  }
}

/**
 * The last topic taken apart and its answer. A PUBLISH's topic is taken apart three times in a row
 * (the broker's ACL, the unsupported-topic check, the message's own parse), so one entry spares two
 * of them whatever the fleet's size. Answers are shared: callers never change them.
 */
let lastTopic = "";
let lastParsed: TopicParseResult | null = null;

/** Takes a protocol topic apart, or says why it is not one. Never throws. */
export function parseDeviceTopic(topic: string): TopicParseResult {
  if (lastParsed !== null && lastTopic === topic) return lastParsed;
  const parsed = takeTopicApart(topic);
  lastTopic = topic;
  lastParsed = parsed;
  return parsed;
}

function takeTopicApart(topic: string): TopicParseResult {
  if (topic.length > MAX_TOPIC_LENGTH) return { ok: false, reason: "too_long" };
  const levels = topic.split("/");
  if (levels[0] !== "cellfleet") return { ok: false, reason: "wrong_root" };
  if (levels[1] !== `v${PROTOCOL_VERSION}`) {
    return { ok: false, reason: /^v\d+$/.test(levels[1] ?? "") ? "unsupported_version" : "wrong_root" };
  }
  const ident = levels[2] ?? "";
  if (!isProtocolIdent(ident)) return { ok: false, reason: "bad_ident" };
  const rest = levels.slice(3);
  const channel = rest[0];
  if (channel === "hello" && rest.length === 1)
    return { ok: true, topic: { direction: "up", ident, channel } };
  if (channel === "event" && rest.length === 1)
    return { ok: true, topic: { direction: "up", ident, channel } };
  if (channel === "collect" && rest.length === 2) {
    const collectType = rest[1];
    if (!isCollectType(collectType)) return { ok: false, reason: "unknown_collect_type" };
    return { ok: true, topic: { direction: "up", ident, channel, collectType } };
  }
  if (channel === "command" && rest.length === 1) {
    return { ok: true, topic: { direction: "down", ident, channel: "command" } };
  }
  if (channel === "notice" && rest.length === 1) {
    return { ok: true, topic: { direction: "down", ident, channel: "notice" } };
  }
  if (channel === "tunnel" && rest.length === 1) {
    return { ok: true, topic: { direction: "down", ident, channel: "tunnel" } };
  }
  if (channel === "command" && rest.length === 3 && rest[2] === "status") {
    const commandId = rest[1];
    if (!isCommandId(commandId)) return { ok: false, reason: "bad_command_id" };
    return { ok: true, topic: { direction: "up", ident, channel: "command_status", commandId } };
  }
  return { ok: false, reason: "unknown_channel" };
}

/**
 * Whether the device `ident` may publish on `topic`: only the upward topics under its own ident.
 * The broker's ACL (embedded hook or HTTP endpoint) asks this for every PUBLISH.
 */
export function canDevicePublish(ident: string, topic: string): boolean {
  const parsed = parseDeviceTopic(topic);
  return parsed.ok && parsed.topic.direction === "up" && parsed.topic.ident === ident;
}

/**
 * Whether the device `ident` may subscribe to `filter`: only its own command, notice and tunnel topics, spelled out
 * (no wildcards), so a device never receives another device's commands.
 */
export function canDeviceSubscribe(ident: string, filter: string): boolean {
  return (
    isProtocolIdent(ident) &&
    (filter === commandTopic(ident) || filter === noticeTopic(ident) || filter === tunnelTopic(ident))
  );
}

/** Why a device's message on a topic of its own is not understood, though it may be one day. */
export type UnsupportedTopicReason = "unsupported_version" | "unsupported_topic";

/**
 * Whether `topic` is under the device's own ident but not one this server speaks: another major
 * version (`cellfleet/v2/{ident}/…`) or an upward v1 topic it does not know (a newer collect type or
 * channel). Such a message is acknowledged, counted and explained on the notice topic rather than
 * closing the connection (docs/device-protocol.md 9). Null for every other topic.
 */
export function unsupportedTopicReason(ident: string, topic: string): UnsupportedTopicReason | null {
  if (topic.length > MAX_TOPIC_LENGTH || !isProtocolIdent(ident)) return null;
  // A topic this server speaks is not unsupported (the common case, answered first).
  const parsed = parseDeviceTopic(topic);
  if (parsed.ok) return null;
  const levels = topic.split("/");
  if (levels[0] !== "cellfleet" || levels[2] !== ident || levels.length < 4) return null;
  if (levels.some((level) => level === "" || level === "+" || level === "#")) return null;
  if (levels[1] !== `v${PROTOCOL_VERSION}`)
    return /^v\d+$/.test(levels[1] ?? "") ? "unsupported_version" : null;
  return parsed.reason === "unknown_channel" || parsed.reason === "unknown_collect_type"
    ? "unsupported_topic"
    : null;
}

/**
 * What a device appends to its ident for its second, publishing connection (docs/device-protocol.md
 * 2, "A second connection for publishing"): client id and user name `{ident}-p`, the same token. An
 * ident never holds `-`, so this names no other device.
 */
export const PUBLISHER_CLIENT_SUFFIX = "-p";

/** The client id (and user name) of a device's publishing connection. */
export function publisherClientId(ident: string): string {
  return `${ident}${PUBLISHER_CLIENT_SUFFIX}`;
}

/**
 * The device a connection belongs to: the ident itself for its main connection, the ident without
 * {@link PUBLISHER_CLIENT_SUFFIX} for its publishing one. Any other client id is answered unchanged
 * (it is then no ident, and is refused or not allowed as before).
 */
export function identOfClientId(clientId: string): string {
  if (!clientId.endsWith(PUBLISHER_CLIENT_SUFFIX)) return clientId;
  const ident = clientId.slice(0, -PUBLISHER_CLIENT_SUFFIX.length);
  return isProtocolIdent(ident) ? ident : clientId;
}
