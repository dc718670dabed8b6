import { describe, expect, it } from "vitest";
import {
  CreateTransportSchema,
  checkRuleMonitor,
  composeDigestMessage,
  composeIncidentMessage,
  formatDuration,
  MONITOR_LABELS,
  MONITOR_NAMES,
  MONITORS,
  monitorsFor,
  monitorVariableChoices,
  monitorVariablesWithDefaults,
  NOTIFICATION_TEXTS,
  RuleFieldsSchema,
  validateChatId,
  validateHost,
  validateHttpUrl,
} from "./index";

describe("the monitor catalogue", () => {
  it("has the six reactive monitors and four timers of spec section 3, each named in both languages", () => {
    expect(MONITOR_NAMES.filter((name) => MONITORS[name].type === "reactive")).toHaveLength(6);
    expect(MONITOR_NAMES.filter((name) => MONITORS[name].type === "timer")).toHaveLength(4);
    for (const name of MONITOR_NAMES) {
      expect(MONITOR_LABELS.ru[name]).toBeTruthy();
      expect(MONITOR_LABELS.en[name]).toBeTruthy();
      expect(Boolean(MONITORS[name].checkDelay)).toBe(MONITORS[name].type === "timer");
    }
  });

  it("offers a variable of `a|b` alternatives as a select, and free text otherwise", () => {
    const [status] = MONITORS.device_status.variables;
    expect(status && monitorVariableChoices(status)).toEqual(["critical", "warning"]);
    const [kind, contains] = MONITORS.device_event.variables;
    expect(kind && monitorVariableChoices(kind)).toContain("sim_switched");
    expect(contains && monitorVariableChoices(contains)).toBeNull();
  });

  it("judges check_delay and variables as spec section 5 says", () => {
    expect(checkRuleMonitor({ name: "connect", check_delay: 30 })).toEqual([]);
    expect(checkRuleMonitor({ name: "connect" })).toEqual([{ field: "check_delay", key: "required" }]);
    for (const bad of [0, -1, 1.5, "01"]) {
      expect(checkRuleMonitor({ name: "connect", check_delay: bad })).toEqual([
        { field: "check_delay", key: "checkDelayInvalid" },
      ]);
    }
    expect(checkRuleMonitor({ name: "device_status", variables: { status: "warning" } })).toEqual([]);
    expect(checkRuleMonitor({ name: "device_status", variables: { status: "warn" } })).toEqual([
      { field: "variables.status", key: "patternMismatch" },
    ]);
    expect(checkRuleMonitor({ name: "device_event", variables: { contains: "x".repeat(65) } })).toEqual([
      { field: "variables.contains", key: "patternMismatch" },
    ]);
    expect(checkRuleMonitor({ name: "device_connected", variables: { extra: "1" } })).toEqual([
      { field: "variables.extra", key: "unknownVariable" },
    ]);
    expect(monitorVariablesWithDefaults("device_event")).toEqual({ kind: "any", contains: "" });
  });

  it("keeps superusers to the monitors about accounts (no device views, spec section 6)", () => {
    expect(monitorsFor(true).map((monitor) => monitor.name)).toEqual([
      "password_expired",
      "password_reset",
      "notify_in_advance",
    ]);
    expect(monitorsFor(false)).toHaveLength(10);
  });

  it("lets a draft lack what it still needs, never what it holds", () => {
    const draft = RuleFieldsSchema.safeParse({ name: "Draft", draft: true, monitor: { name: "connect" } });
    expect(draft.success).toBe(true);
    const rule = RuleFieldsSchema.safeParse({ name: "Rule", monitor: { name: "connect" } });
    expect(rule.success).toBe(false);
    const wrong = RuleFieldsSchema.safeParse({
      name: "Draft",
      draft: true,
      monitor: { name: "connect", check_delay: 0 },
    });
    expect(wrong.success).toBe(false);
  });
});

describe("provider fields", () => {
  it("checks chat ids, webhook URLs and SMTP hosts", () => {
    for (const good of ["1001", "-1001234567890", "@cellfleet_noc"])
      expect(validateChatId(good), good).toBeNull();
    for (const bad of ["abc", "0", "-", "@ab", "12 34"])
      expect(validateChatId(bad), bad).toBe("patternMismatch");
    expect(validateHttpUrl("https://hooks.slack.com/services/T000/B000/XXX")).toBeNull();
    expect(validateHttpUrl("http://[::1]:8065/hooks/abc")).toBeNull();
    for (const bad of ["ftp://x", "hooks.slack.com", "https://", "https://a b"])
      expect(validateHttpUrl(bad), bad).toBe("urlInvalid");
    expect(validateHost("smtp.example.com")).toBeNull();
    expect(validateHost("10.0.0.5")).toBeNull();
    expect(validateHost("bad host")).toBe("hostInvalid");
  });

  it("takes the bot token as bot_token, since a body's token is the session's", () => {
    const parsed = CreateTransportSchema.parse({
      type: "telegram",
      name: "Bot",
      chat_id: "1001",
      bot_token: "123:AAH-abcdefghijklmnopqrstuvwxyz",
    });
    expect(parsed).toMatchObject({ silent: false, protect_content: false, language: "ru", prefix: "" });
  });
});

describe("messages", () => {
  const line = (device: string) => ({ key: "deviceStatus" as const, params: { device, status: "critical" } });

  it("names the one incident in the title, and counts many", () => {
    const one = composeIncidentMessage({
      locale: "en",
      prefix: "[NOC]",
      ruleName: "Critical",
      opened: [line("R1")],
      resolved: [],
      summarized: [],
      maxLines: 30,
      maxChars: 4096,
    });
    expect(one.title).toBe("[NOC] Critical: R1: status critical");
    const many = composeIncidentMessage({
      locale: "ru",
      prefix: "",
      ruleName: "Критичные",
      opened: [line("R1"), line("R2")],
      resolved: [
        { key: "deviceStatusResolved", params: { device: "R3", status: "online", durationMs: 125_000 } },
      ],
      summarized: [],
      maxLines: 30,
      maxChars: 4096,
    });
    expect(many.title).toBe("Критичные: началось 2, завершилось 1");
    expect(many.text).toContain("• R1: статус «критический»");
    expect(many.text).toContain("• R3: снова «в сети» (проблема длилась 2 мин 5 с)");
  });

  it("lists the first lines, counts the rest, and fits Telegram's 4096 characters", () => {
    const opened = Array.from({ length: 10_000 }, (_, index) =>
      line(`ROUTER${String(index).padStart(6, "0")}`),
    );
    const message = composeIncidentMessage({
      locale: "en",
      prefix: "",
      ruleName: "Fleet",
      opened,
      resolved: [],
      summarized: [],
      maxLines: 30,
      maxChars: 4096,
    });
    expect(message.title).toBe("Fleet: 10000 started");
    expect(message.text.match(/^• /gm)).toHaveLength(30);
    expect(message.text).toContain("… and 9970 more");
    const tight = composeIncidentMessage({
      locale: "en",
      prefix: "",
      ruleName: "Fleet",
      opened,
      resolved: [],
      summarized: [],
      maxLines: 1000,
      maxChars: 500,
    });
    expect(tight.text.length).toBeLessThanOrEqual(500);
    expect(tight.text).toMatch(/… and \d+ more$/);
  });

  it("sums up repeats, and writes digests", () => {
    const repeated = composeIncidentMessage({
      locale: "en",
      prefix: "",
      ruleName: "SIM",
      opened: [],
      resolved: [],
      summarized: [
        {
          key: "deviceEvent",
          params: { device: "R1", level: "warning", kind: "sim_switched", message: "SIM 2" },
          repeats: 4,
        },
      ],
      maxLines: 30,
      maxChars: 4096,
    });
    expect(repeated.text).toContain("R1: warning sim_switched: SIM 2 — 4 more time(s)");
    const digest = composeDigestMessage({
      locale: "en",
      prefix: "",
      ruleName: "Daily",
      status: "warning",
      lines: [
        {
          key: "digestLine",
          params: { device: "R1", status: "critical", dateMs: Date.UTC(2026, 10, 24, 12, 5) },
        },
      ],
      maxLines: 30,
      maxChars: 4096,
    });
    expect(digest.title).toBe("Daily: 1 devices warning or worse");
    expect(digest.text).toContain("• R1: critical, last contact 2026-11-24 12:05 UTC");
  });

  it("formats durations by their two largest units and has every text in both languages", () => {
    expect(formatDuration(0, "en")).toBe("0 s");
    expect(formatDuration(90_061_000, "en")).toBe("1 d 1 h");
    expect(formatDuration(3_600_000, "ru")).toBe("1 ч");
    expect(Object.keys(NOTIFICATION_TEXTS.ru).sort()).toEqual(Object.keys(NOTIFICATION_TEXTS.en).sort());
  });
});
