import type { Rule, Transport } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import { setLocale } from "../../app/i18n";
import { testAnswerText } from "./providerAnswer";
import { toRuleBody, toRuleForm, withMonitor } from "./ruleForm";
import { toTransportBody, toTransportForm } from "./transportForm";

// The forms' pure halves: what a rule or provider form starts with, and the body it sends.

const RULE: Rule = {
  _id: "r1",
  name: "Silent routers",
  active: true,
  draft: false,
  monitor: { name: "connect", type: "timer", check_delay: 30, variables: {} },
  transport: { _id: "t1", name: "Bot", type: "telegram" },
  filter_tags: ["roof"],
  filter_levels: [],
  tolerance_minutes: 10,
  open_incidents: 0,
  create_date: 0,
  update_time: 0,
};

describe("the rule form", () => {
  it("starts a new rule with the monitor's defaults and a five-minute tolerance", () => {
    expect(toRuleForm(null)).toMatchObject({
      monitor: "device_status",
      check_delay: "",
      variables: { status: "critical" },
      tolerance: "5",
      active: true,
    });
  });

  it("sends what the server takes, and what a draft holds", () => {
    expect(toRuleBody(toRuleForm(RULE), false)).toEqual({
      name: "Silent routers",
      active: true,
      draft: false,
      monitor: { name: "connect", check_delay: 30, variables: {} },
      transport_id: "t1",
      filter_tags: ["roof"],
      filter_levels: [],
      tolerance_minutes: 10,
    });
    const events = withMonitor(toRuleForm(RULE), "device_event");
    expect(events).toMatchObject({ check_delay: "", variables: { kind: "any", contains: "" } });
    const draft = toRuleBody(
      { ...withMonitor(toRuleForm(null), "check_interval"), name: "Later", check_delay: "" },
      true,
    );
    expect(draft).toMatchObject({
      draft: true,
      monitor: { check_delay: null },
      transport_id: null,
      tolerance_minutes: 0,
    });
  });
});

describe("the provider form", () => {
  const telegram: Transport = {
    _id: "t1",
    name: "Bot",
    type: "telegram",
    prefix: "[NOC]",
    language: "en",
    telegram: { chat_id: "-100777", message_thread_id: 4, silent: true, protect_content: false },
    webhook: null,
    smtp: null,
    has_secret: true,
    health: {
      healthy: true,
      failures: 0,
      last_error: null,
      last_failure_time: null,
      last_success_time: null,
    },
    rules: 1,
    create_time: 0,
  };

  it("never holds a stored secret, and sends one only when typed", () => {
    const form = toTransportForm(telegram, "ru");
    expect(form).toMatchObject({ bot_token: "", chat_id: "-100777", message_thread_id: "4", language: "en" });
    expect(toTransportBody(form, false)).toEqual({
      type: "telegram",
      name: "Bot",
      prefix: "[NOC]",
      language: "en",
      chat_id: "-100777",
      message_thread_id: 4,
      silent: true,
      protect_content: false,
      bot_token: undefined,
    });
    expect(toTransportBody({ ...form, bot_token: " 1:abc " }, false)).toMatchObject({ bot_token: "1:abc" });
  });

  it("sends an SMTP provider's fields, the port as a number", () => {
    const form = {
      ...toTransportForm(null, "ru"),
      type: "smtp" as const,
      name: "Mail",
      host: "mx",
      port: "465",
      ssl: true,
      tls: false,
    };
    expect(toTransportBody(form, true)).toMatchObject({
      type: "smtp",
      host: "mx",
      port: 465,
      ssl: true,
      tls: false,
      password: "",
    });
  });
});

describe("provider answers", () => {
  it("say the spec's messages for a missing chat and a bad token, the provider's words otherwise", () => {
    setLocale("en");
    expect(testAnswerText({ ok: true, reason: null, description: "ok" }, "Sent")).toBe("Sent");
    expect(testAnswerText({ ok: false, reason: "chat_not_found", description: "400" }, "")).toBe(
      "Chat not found",
    );
    expect(testAnswerText({ ok: false, reason: "invalid_token", description: "401" }, "")).toBe(
      "Invalid bot token",
    );
    expect(
      testAnswerText({ ok: false, reason: "error", description: "403 Forbidden: bot was blocked" }, ""),
    ).toBe("The test message was not sent: 403 Forbidden: bot was blocked");
  });
});
