import type { Locale } from "../constants";
import { formatMessage } from "../messages";
import { DURATION_UNITS, NOTIFICATION_TEXTS, type NotificationTextKey } from "./texts";

// How a notification message reads: one message per rule and moment, however many incidents it
// carries (10,000 routers going critical at once make one message with the first lines and a
// count, not 10,000 messages), in the provider's language, under its prefix.

/** One line of a message: a text key and its values. `status` and `action` values are translated. */
export interface MessageLine {
  key: NotificationTextKey;
  params: Readonly<Record<string, string | number>>;
  /** Times it happened again within the incident (shown on summary lines). */
  repeats?: number;
}

/** What one message says. */
export interface ComposeInput {
  locale: Locale;
  /** The provider's prefix, put before the title and the text. */
  prefix: string;
  ruleName: string;
  opened: readonly MessageLine[];
  resolved: readonly MessageLine[];
  /** Occurrences that closed after repeating: their repeat counts. */
  summarized: readonly MessageLine[];
  /** Lines listed per section at most; the rest are counted. */
  maxLines: number;
  /** The whole text at most (Telegram: 4096 characters). */
  maxChars: number;
}

/** A composed message. */
export interface ComposedMessage {
  title: string;
  text: string;
}

/** `2026-11-24 12:05 UTC`: one time zone for every reader of a chat. */
export function formatUtcTime(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** `2 h 5 min`, `40 s`: the two largest units of a duration. */
export function formatDuration(ms: number, locale: Locale): string {
  const units = DURATION_UNITS[locale];
  const seconds = Math.max(0, Math.round(ms / 1000));
  const parts: Array<[number, string]> = [
    [Math.floor(seconds / 86400), units.d],
    [Math.floor((seconds % 86400) / 3600), units.h],
    [Math.floor((seconds % 3600) / 60), units.min],
    [seconds % 60, units.s],
  ];
  const first = parts.findIndex(([value]) => value > 0);
  if (first === -1) return `0 ${units.s}`;
  return parts
    .slice(first, first + 2)
    .filter(([value]) => value > 0)
    .map(([value, unit]) => `${value} ${unit}`)
    .join(" ");
}

/** One line in words: status and action values translated, `durationMs` and `dateMs` formatted. */
export function renderLine(line: MessageLine, locale: Locale): string {
  const texts = NOTIFICATION_TEXTS[locale];
  const params: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(line.params)) {
    if (name === "status" || name === "action") {
      params[name] = texts[`${name}.${value}` as NotificationTextKey] ?? String(value);
    } else if (name === "durationMs") {
      params.duration = formatDuration(Number(value), locale);
    } else if (name === "dateMs") {
      params.date = formatUtcTime(Number(value));
    } else {
      params[name] = value;
    }
  }
  const text = formatMessage(texts[line.key], params);
  return line.repeats ? formatMessage(texts.repeats, { line: text, count: line.repeats }) : text;
}

function withPrefix(prefix: string, text: string): string {
  return prefix.trim() ? `${prefix.trim()} ${text}` : text;
}

/**
 * The message of a rule's incidents: a title naming the rule and the counts (or the one line when
 * there is one), and a text with a section per kind, each listing up to `maxLines` lines and
 * counting the rest, cut to `maxChars`.
 */
export function composeIncidentMessage(input: ComposeInput): ComposedMessage {
  const texts = NOTIFICATION_TEXTS[input.locale];
  const sections: Array<[NotificationTextKey, NotificationTextKey, readonly MessageLine[]]> = [
    ["opened", "countStarted", input.opened],
    ["resolved", "countEnded", input.resolved],
    ["summary", "countRepeated", input.summarized],
  ];
  const present = sections.filter(([, , lines]) => lines.length > 0);
  const total = present.reduce((sum, [, , lines]) => sum + lines.length, 0);
  const only = present.length === 1 && total === 1 ? present[0]?.[2][0] : undefined;
  const summary = only
    ? renderLine(only, input.locale)
    : present
        .map(([, countKey, lines]) => formatMessage(texts[countKey], { count: lines.length }))
        .join(", ");
  const title = withPrefix(input.prefix, formatMessage(texts.title, { rule: input.ruleName, summary }));

  const body: string[] = [];
  for (const [headKey, , lines] of present) {
    body.push(formatMessage(texts[headKey], { count: lines.length }));
    const shown = lines.slice(0, input.maxLines);
    for (const line of shown) body.push(`• ${renderLine(line, input.locale)}`);
    if (lines.length > shown.length) {
      body.push(formatMessage(texts.more, { count: lines.length - shown.length }));
    }
  }
  return { title, text: fitText(title, body, input.maxChars, input.locale) };
}

/** A digest (check interval): the title with the count and a line per device, the rest counted. */
export function composeDigestMessage(input: {
  locale: Locale;
  prefix: string;
  ruleName: string;
  status: string;
  lines: readonly MessageLine[];
  maxLines: number;
  maxChars: number;
}): ComposedMessage {
  const texts = NOTIFICATION_TEXTS[input.locale];
  const status = texts[`status.${input.status}` as NotificationTextKey] ?? input.status;
  const title = withPrefix(
    input.prefix,
    formatMessage(texts.digestTitle, { rule: input.ruleName, status, count: input.lines.length }),
  );
  const body = input.lines.slice(0, input.maxLines).map((line) => `• ${renderLine(line, input.locale)}`);
  if (input.lines.length > input.maxLines) {
    body.push(formatMessage(texts.more, { count: input.lines.length - input.maxLines }));
  }
  return { title, text: fitText(title, body, input.maxChars, input.locale) };
}

/** The title and the body lines, dropping lines from the end (and counting them) until it fits. */
function fitText(title: string, body: readonly string[], maxChars: number, locale: Locale): string {
  const texts = NOTIFICATION_TEXTS[locale];
  const lines = [...body];
  let dropped = 0;
  for (;;) {
    const tail = dropped > 0 ? [formatMessage(texts.more, { count: dropped })] : [];
    const text = [title, "", ...lines, ...tail].join("\n");
    if (text.length <= maxChars || lines.length === 0) return text.slice(0, maxChars);
    lines.pop();
    dropped += 1;
  }
}
