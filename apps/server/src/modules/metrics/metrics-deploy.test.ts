import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createTestApp, type TestApp } from "../../test/test-app";
import { sampleDeviceIngestStats } from "../ingest/ingest.test-support";

// The Grafana dashboard and the Prometheus alert rules in deploy/ name only what GET /metrics
// exports: a renamed metric fails here instead of leaving an empty panel or an alert that never fires.

const DEPLOY = join(fileURLToPath(new URL(".", import.meta.url)), "../../../../../deploy");
const TOKEN = "prometheus-scrape-token-for-tests";
let t: TestApp;
let exported = new Set<string>();

/** The names a PromQL expression reads. */
function metricNamesIn(expr: string): string[] {
  return expr.match(/cellfleet_[a-z0-9_]+/g) ?? [];
}

beforeAll(async () => {
  t = await createTestApp({ config: { metricsToken: TOKEN }, mqttStats: () => sampleDeviceIngestStats() });
  await t.app.inject({ method: "GET", url: "/api/health" });
  const response = await t.app.inject({
    method: "GET",
    url: "/metrics",
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(response.statusCode).toBe(200);
  exported = new Set();
  for (const line of response.body.split("\n")) {
    const typed = /^# TYPE (\S+) (\S+)/.exec(line);
    if (!typed?.[1]) continue;
    exported.add(typed[1]);
    if (typed[2] === "histogram" || typed[2] === "summary")
      for (const part of ["_bucket", "_count", "_sum"]) exported.add(`${typed[1]}${part}`);
  }
});
afterAll(async () => {
  await t.close();
});

describe("deploy/", () => {
  it("the alert rules read only exported metrics, and each names its severity and summary", () => {
    const rules = parse(readFileSync(join(DEPLOY, "prometheus/alerts.yml"), "utf8")) as {
      groups: Array<{
        rules: Array<{
          alert: string;
          expr: string;
          labels: { severity: string };
          annotations: { summary: string };
        }>;
      }>;
    };
    const all = rules.groups.flatMap((group) => group.rules);
    expect(all.map((rule) => rule.alert)).toEqual(
      expect.arrayContaining([
        "CellfleetIngestStalled",
        "CellfleetJobsDead",
        "CellfleetOutboxGrowing",
        "CellfleetBrokerDown",
      ]),
    );
    for (const rule of all) {
      expect(["critical", "warning"]).toContain(rule.labels.severity);
      expect(rule.annotations.summary).not.toBe("");
      for (const name of metricNamesIn(rule.expr)) expect(exported, `${rule.alert}: ${name}`).toContain(name);
    }
  });

  it("the Grafana dashboard's panels read only exported metrics", () => {
    const dashboard = JSON.parse(readFileSync(join(DEPLOY, "grafana/cellfleet.json"), "utf8")) as {
      panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
    };
    expect(dashboard.panels.length).toBeGreaterThan(10);
    for (const panel of dashboard.panels) {
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets)
        for (const name of metricNamesIn(target.expr))
          expect(exported, `${panel.title}: ${name}`).toContain(name);
    }
  });

  it("the scrape config sends the bearer token to /metrics", () => {
    const config = parse(readFileSync(join(DEPLOY, "prometheus/prometheus.yml"), "utf8")) as {
      scrape_configs: Array<{ metrics_path: string; authorization: { type: string } }>;
    };
    expect(config.scrape_configs[0]?.metrics_path).toBe("/metrics");
    expect(config.scrape_configs[0]?.authorization.type).toBe("Bearer");
  });
});
