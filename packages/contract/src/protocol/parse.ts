import type { z } from "zod";
import { type CollectMessageMap, CollectSchemas } from "./collect";
import {
  type CommandMessage,
  CommandMessageSchema,
  type CommandStatusMessage,
  CommandStatusMessageSchema,
  type DeviceEventMessage,
  DeviceEventMessageSchema,
  type HelloMessage,
  HelloMessageSchema,
  MAX_PAYLOAD_BYTES,
} from "./messages";
import { type CollectType, parseDeviceTopic, type TopicErrorReason } from "./topics";

interface Utf8Decoder {
  decode(input: Uint8Array): string;
}
// Typed locally: the contract has neither DOM nor Node typings (see token.ts).
const TextDecoderCtor = (
  globalThis as unknown as { TextDecoder: new (label: string, options: { fatal: boolean }) => Utf8Decoder }
).TextDecoder;
const utf8 = new TextDecoderCtor("utf-8", { fatal: true });

/** A valid upward message, by channel; `collect` narrows on `collectType`. */
export type DeviceMessage =
  | { kind: "hello"; message: HelloMessage }
  | { [T in CollectType]: { kind: "collect"; collectType: T; message: CollectMessageMap[T] } }[CollectType]
  | { kind: "event"; message: DeviceEventMessage }
  | { kind: "command_status"; commandId: string; message: CommandStatusMessage };

/** Why a message was refused. */
export type MessageErrorReason = "bad_topic" | "too_large" | "not_json" | "schema";

/** Result of {@link parseDeviceMessage}. */
export type DeviceMessageParseResult =
  | ({ ok: true; ident: string } & DeviceMessage)
  | {
      ok: false;
      reason: MessageErrorReason;
      /** A short explanation for logs: the topic reason, or the first schema issues. */
      detail: string;
      /** The ident from the topic when the topic was readable, so refusals can be counted per device. */
      ident?: string;
    };

/** Result of {@link parseCommandMessage}. */
export type CommandParseResult =
  | { ok: true; ident: string; command: CommandMessage }
  | { ok: false; reason: MessageErrorReason; detail: string };

/** UTF-8 size of a string in bytes (a lone surrogate counts 3, as TextEncoder writes U+FFFD). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** Decodes and JSON-parses a payload within the size limit. */
function readJson(
  payload: Uint8Array | string,
): { ok: true; value: unknown } | { ok: false; reason: "too_large" | "not_json"; detail: string } {
  const size =
    typeof payload !== "string"
      ? payload.byteLength
      : payload.length > MAX_PAYLOAD_BYTES
        ? payload.length
        : utf8Length(payload);
  if (size > MAX_PAYLOAD_BYTES) return { ok: false, reason: "too_large", detail: `${size} bytes` };
  let text: string;
  try {
    text = typeof payload === "string" ? payload : utf8.decode(payload);
  } catch {
    return { ok: false, reason: "not_json", detail: "not UTF-8" };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, reason: "not_json", detail: "not JSON" };
  }
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`)
    .join("; ");
}

function schemaFailure(error: z.ZodError, ident: string): DeviceMessageParseResult {
  return { ok: false, reason: "schema", detail: describeIssues(error), ident };
}

function topicFailure(reason: TopicErrorReason | "wrong_direction"): {
  ok: false;
  reason: "bad_topic";
  detail: string;
} {
  return { ok: false, reason: "bad_topic", detail: reason };
}

/**
 * Checks one message a device published: its topic, size, encoding and schema. Answers the typed
 * message or the reason it was refused; never throws, whatever the input.
 */
export function parseDeviceMessage(topic: string, payload: Uint8Array | string): DeviceMessageParseResult {
  try {
    const parsedTopic = parseDeviceTopic(topic);
    if (!parsedTopic.ok) return topicFailure(parsedTopic.reason);
    const where = parsedTopic.topic;
    if (where.direction !== "up") return { ...topicFailure("wrong_direction"), ident: where.ident };
    const ident = where.ident;
    const json = readJson(payload);
    if (!json.ok) return { ...json, ident };
    switch (where.channel) {
      case "hello": {
        const result = HelloMessageSchema.safeParse(json.value);
        return result.success
          ? { ok: true, ident, kind: "hello", message: result.data }
          : schemaFailure(result.error, ident);
      }
      case "collect": {
        const result = CollectSchemas[where.collectType].safeParse(json.value);
        if (!result.success) return schemaFailure(result.error, ident);
        // The schema was picked by collectType, so the data matches it.
        return {
          ok: true,
          ident,
          kind: "collect",
          collectType: where.collectType,
          message: result.data,
        } as DeviceMessageParseResult;
      }
      case "event": {
        const result = DeviceEventMessageSchema.safeParse(json.value);
        return result.success
          ? { ok: true, ident, kind: "event", message: result.data }
          : schemaFailure(result.error, ident);
      }
      case "command_status": {
        const result = CommandStatusMessageSchema.safeParse(json.value);
        if (!result.success) return schemaFailure(result.error, ident);
        if (result.data.id !== where.commandId) {
          return { ok: false, reason: "schema", detail: "id: differs from the topic's command id", ident };
        }
        return { ok: true, ident, kind: "command_status", commandId: where.commandId, message: result.data };
      }
    }
  } catch (error) {
    // Unreachable by design; kept so a bug in a schema can never take ingest down.
    return { ok: false, reason: "schema", detail: `unexpected: ${String(error)}` };
  }
}

/** Checks one command as a device receives it on its command topic; never throws. */
export function parseCommandMessage(topic: string, payload: Uint8Array | string): CommandParseResult {
  try {
    const parsedTopic = parseDeviceTopic(topic);
    if (!parsedTopic.ok) return topicFailure(parsedTopic.reason);
    if (parsedTopic.topic.direction !== "down") return topicFailure("wrong_direction");
    const json = readJson(payload);
    if (!json.ok) return json;
    const result = CommandMessageSchema.safeParse(json.value);
    if (!result.success) return { ok: false, reason: "schema", detail: describeIssues(result.error) };
    return { ok: true, ident: parsedTopic.topic.ident, command: result.data };
  } catch (error) {
    return { ok: false, reason: "schema", detail: `unexpected: ${String(error)}` };
  }
}
