import { DEFAULT_DOMAIN_SETTINGS } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import {
  copiesError,
  remoteAccessError,
  thresholdError,
  timeZoneChoices,
  toSettingsBody,
  toSettingsForm,
} from "./settingsForm";

const form = (warning: string, pending: string, online: string) => ({
  warning,
  pending,
  online,
  backup: "10",
  journal: "10",
  time_zone: "UTC",
  auto_accept: false,
  window_start: "",
  window_end: "",
  idle_minutes: "15",
  max_minutes: "120",
  bandwidth_kib: "1024",
  quota_mib: "256",
  recording_days: "90",
});

describe("the settings form", () => {
  it("turns stored settings into fields and back", () => {
    const values = toSettingsForm(DEFAULT_DOMAIN_SETTINGS);
    expect(values).toEqual({
      warning: "60",
      pending: "15",
      online: "15",
      backup: "10",
      journal: "10",
      time_zone: "UTC",
      auto_accept: false,
      window_start: "",
      window_end: "",
      idle_minutes: "15",
      max_minutes: "120",
      bandwidth_kib: "1024",
      quota_mib: "256",
      recording_days: "90",
    });
    const body = toSettingsBody({ ...values, online: " 20 ", time_zone: "Europe/Berlin" });
    expect(body.time_zone).toBe("Europe/Berlin");
    expect(body.status).toEqual([
      { name: "warning", minutes: 60 },
      { name: "pending", minutes: 15 },
      { name: "online", minutes: 20 },
    ]);
    expect(body.backup).toEqual({ copies: 10 });
    expect(body.rollouts).toEqual({ auto_accept: false, window: null });
    expect(body.remote_access).toEqual(DEFAULT_DOMAIN_SETTINGS.remote_access);
    expect(toSettingsBody({ ...values, idle_minutes: " 5 ", quota_mib: "1024" }).remote_access).toEqual({
      idle_minutes: 5,
      max_minutes: 120,
      bandwidth_kib: 1024,
      quota_mib: 1024,
      recording_days: 90,
    });
  });

  it("keeps the domain's answer to rollouts: accepting by itself, in its window (ADR 031)", () => {
    const stored = {
      ...DEFAULT_DOMAIN_SETTINGS,
      rollouts: { auto_accept: true, window: { start: 1380, end: 150 } },
    };
    const values = toSettingsForm(stored);
    expect(values).toMatchObject({ auto_accept: true, window_start: "23:00", window_end: "02:30" });
    // Saving the thresholds does not lose it.
    expect(toSettingsBody(values).rollouts).toEqual(stored.rollouts);
    // Nor remote access's limits (ADR 038).
    expect(toSettingsBody(values).remote_access).toEqual(DEFAULT_DOMAIN_SETTINGS.remote_access);
    expect(toSettingsBody({ ...values, window_start: "", window_end: "" }).rollouts).toEqual({
      auto_accept: true,
      window: null,
    });
  });

  it("judges thresholds as spec section 5 says: required, 15 to 10080, each not above the one before", () => {
    expect(thresholdError(form("", "15", "15"), "warning")).toBe("required");
    expect(thresholdError(form("14", "15", "15"), "warning")).toBe("statusMinutesRange");
    expect(thresholdError(form("10081", "15", "15"), "warning")).toBe("statusMinutesRange");
    expect(thresholdError(form("10080", "10080", "10080"), "online")).toBeNull();
    expect(thresholdError(form("60", "61", "15"), "pending")).toBe("statusMinutesAbovePrevious");
    expect(thresholdError(form("60", "30", "31"), "online")).toBe("statusMinutesAbovePrevious");
    expect(thresholdError(form("60", "30", "31"), "pending")).toBeNull();
    expect(thresholdError(form("60", "30", "31"), "warning")).toBeNull();
    // A value that is itself wrong is reported on its own row, not held against the next one.
    expect(thresholdError(form("60", "5", "61"), "online")).toBeNull();
  });

  it("judges copies: required, 1 to 100", () => {
    expect(copiesError("")).toBe("required");
    expect(copiesError("0")).toBe("copiesRange");
    expect(copiesError("1")).toBeNull();
    expect(copiesError("100")).toBeNull();
    expect(copiesError("101")).toBe("copiesRange");
    expect(copiesError("1.5")).toBe("copiesRange");
  });

  it("judges remote access's limits by the contract's ranges (ADR 038)", () => {
    expect(remoteAccessError("idle_minutes", "")).toBe("required");
    expect(remoteAccessError("idle_minutes", "0")).toBe("idleMinutesRange");
    expect(remoteAccessError("idle_minutes", "240")).toBeNull();
    expect(remoteAccessError("idle_minutes", "241")).toBe("idleMinutesRange");
    expect(remoteAccessError("max_minutes", "1441")).toBe("maxMinutesRange");
    expect(remoteAccessError("bandwidth_kib", "7")).toBe("bandwidthRange");
    expect(remoteAccessError("bandwidth_kib", "8")).toBeNull();
    expect(remoteAccessError("quota_mib", "2.5")).toBe("quotaRange");
    expect(remoteAccessError("quota_mib", "102400")).toBeNull();
    expect(remoteAccessError("recording_days", "3651")).toBe("recordingDaysRange");
  });

  it("lists the zones with UTC, the stored one included", () => {
    expect(timeZoneChoices("UTC")).toContain("UTC");
    expect(timeZoneChoices("Europe/Berlin")).toContain("Europe/Berlin");
    expect(timeZoneChoices("Mars/Olympus")).not.toContain("Mars/Olympus");
  });
});
