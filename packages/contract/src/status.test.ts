import { describe, expect, it } from "vitest";
import {
  ACTION_STATUSES,
  actionResultLabelKey,
  actionStatusLabelKey,
  computeDeviceStatus,
  DEVICE_STATUSES,
  fileTaskStatusLabelKey,
  firmwareStatusLabel,
  isActionFinished,
  isCollectFresh,
  isReachableNow,
  licenseStatusLabelKey,
  linkStateLabelKey,
  modemRoleLabelKey,
  type StatusThreshold,
  serviceStateLabelKey,
  signalQualityFromCsq,
  tunnelStateLabelKey,
  wanStateLabelKey,
} from "./index";

const MINUTE = 60_000;
const NOW = 1_800_000_000_000;
const thresholds: StatusThreshold[] = [
  { name: "online", minutes: 15 },
  { name: "warning", minutes: 60 },
];
const ago = (ms: number) => NOW - ms;

describe("isReachableNow", () => {
  it("follows the gateway's connection where it knows it, and the status only where it does not", () => {
    expect(isReachableNow(false, "online")).toBe(false);
    expect(isReachableNow(true, "critical")).toBe(true);
    expect(isReachableNow(null, "online")).toBe(true);
    expect(isReachableNow(null, "warning")).toBe(false);
    expect(isReachableNow(null, "pending")).toBe(false);
  });
});

describe("computeDeviceStatus", () => {
  it("is pending when the device never reported", () => {
    expect(computeDeviceStatus(null, NOW, thresholds)).toBe("pending");
  });

  it("is online up to and including the online threshold", () => {
    expect(computeDeviceStatus(NOW, NOW, thresholds)).toBe("online");
    expect(computeDeviceStatus(ago(15 * MINUTE), NOW, thresholds)).toBe("online");
    expect(computeDeviceStatus(ago(15 * MINUTE + 1), NOW, thresholds)).toBe("warning");
  });

  it("is warning up to and including the warning threshold, critical beyond", () => {
    expect(computeDeviceStatus(ago(60 * MINUTE), NOW, thresholds)).toBe("warning");
    expect(computeDeviceStatus(ago(60 * MINUTE + 1), NOW, thresholds)).toBe("critical");
    expect(computeDeviceStatus(0, NOW, thresholds)).toBe("critical");
  });

  it("treats a contact time in the future as just now", () => {
    expect(computeDeviceStatus(NOW + 5 * MINUTE, NOW, thresholds)).toBe("online");
  });

  it("checks online before warning whatever the array order", () => {
    const reversed = [...thresholds].reverse();
    expect(computeDeviceStatus(ago(10 * MINUTE), NOW, reversed)).toBe("online");
  });

  it("takes the first covering status even when thresholds are out of order", () => {
    const odd: StatusThreshold[] = [
      { name: "online", minutes: 60 },
      { name: "warning", minutes: 15 },
    ];
    expect(computeDeviceStatus(ago(30 * MINUTE), NOW, odd)).toBe("online");
  });

  it("is critical as soon as no threshold is configured", () => {
    expect(computeDeviceStatus(NOW, NOW, [])).toBe("critical");
    expect(computeDeviceStatus(ago(20 * MINUTE), NOW, [{ name: "warning", minutes: 30 }])).toBe("warning");
  });

  it("lists the statuses in display order", () => {
    expect(DEVICE_STATUSES).toEqual(["critical", "warning", "pending", "online"]);
  });
});

describe("isCollectFresh", () => {
  it("is fresh while younger than the warning minutes", () => {
    expect(isCollectFresh(NOW, NOW, 60)).toBe(true);
    expect(isCollectFresh(ago(60 * MINUTE - 1), NOW, 60)).toBe(true);
    expect(isCollectFresh(ago(60 * MINUTE), NOW, 60)).toBe(false);
  });
});

describe("actions", () => {
  it("shows in_progress as 'not completed' and every other status by its name", () => {
    expect(actionStatusLabelKey("in_progress")).toBe("notCompleted");
    for (const status of ACTION_STATUSES.filter((entry) => entry !== "in_progress")) {
      expect(actionStatusLabelKey(status)).toBe(status);
    }
  });

  it("knows the final statuses", () => {
    expect(ACTION_STATUSES.filter(isActionFinished)).toEqual(["completed", "failed", "cancelled", "expired"]);
  });

  it("labels results, folding the spec's synonyms together", () => {
    expect(actionResultLabelKey("not_sent")).toBe("notSent");
    expect(actionResultLabelKey("sent_not_confirmed")).toBe("sentNotConfirmed");
    expect(actionResultLabelKey("no_files")).toBe("noFiles");
    expect(actionResultLabelKey("attempts_exceeded")).toBe("attemptsExceeded");
    expect(actionResultLabelKey("declined")).toBe("declined");
    expect(actionResultLabelKey("cancelled_by_user")).toBe("declined");
    expect(actionResultLabelKey("timed_out")).toBe("timedOut");
    expect(actionResultLabelKey("runtime_expired")).toBe("timedOut");
    expect(actionResultLabelKey("success")).toBe("success");
    expect(actionResultLabelKey("no")).toBe("no");
    expect(actionResultLabelKey("error")).toBe("error");
  });

  it("labels anything unknown as unknown", () => {
    expect(actionResultLabelKey("whatever")).toBe("unknown");
    expect(actionResultLabelKey("toString")).toBe("unknown");
    expect(actionResultLabelKey(null)).toBe("unknown");
    expect(actionResultLabelKey("")).toBe("unknown");
  });

  it("labels backups and journals completed or failed", () => {
    expect(fileTaskStatusLabelKey("completed")).toBe("completed");
    expect(fileTaskStatusLabelKey("failed")).toBe("failed");
    expect(fileTaskStatusLabelKey(undefined)).toBe("failed");
  });
});

describe("firmwareStatusLabel", () => {
  it("labels the known codes", () => {
    expect(firmwareStatusLabel(0)).toEqual({ key: "pending" });
    expect(firmwareStatusLabel(1)).toEqual({ key: "accepted" });
    expect(firmwareStatusLabel(2)).toEqual({ key: "ready" });
    expect(firmwareStatusLabel(240)).toEqual({ key: "error" });
    expect(firmwareStatusLabel(415)).toEqual({ key: "invalidResource" });
    expect(firmwareStatusLabel(422)).toEqual({ key: "invalidResource" });
  });

  it("labels any other code 'HTTP Error {n}'", () => {
    expect(firmwareStatusLabel(404)).toEqual({ key: "httpError", params: { code: 404 } });
    expect(firmwareStatusLabel(3)).toEqual({ key: "httpError", params: { code: 3 } });
  });
});

describe("licenseStatusLabelKey", () => {
  it("labels the known codes and anything else Error", () => {
    expect([0, 1, 2, 25, 230, 254, 3, 255, -1].map(licenseStatusLabelKey)).toEqual([
      "pending",
      "activated",
      "ready",
      "serverError",
      "banned",
      "expired",
      "error",
      "error",
      "error",
    ]);
  });
});

describe("network labels", () => {
  it("labels WAN state 1 online and anything else offline", () => {
    expect(wanStateLabelKey(1)).toBe("online");
    expect(wanStateLabelKey("1")).toBe("online");
    expect(wanStateLabelKey(0)).toBe("offline");
    expect(wanStateLabelKey(null)).toBe("offline");
  });

  it("labels modems, tunnels, services and links", () => {
    expect(modemRoleLabelKey(true)).toBe("main");
    expect(modemRoleLabelKey(false)).toBe("backup");
    expect(tunnelStateLabelKey(true)).toBe("up");
    expect(tunnelStateLabelKey(false)).toBe("down");
    expect(serviceStateLabelKey(true)).toBe("running");
    expect(serviceStateLabelKey(false)).toBe("stop");
    expect(linkStateLabelKey(true)).toBe("up");
    expect(linkStateLabelKey(false)).toBe("down");
  });
});

describe("signalQualityFromCsq", () => {
  it("labels each band at its edges", () => {
    expect(signalQualityFromCsq(0)).toBe("cellEdge");
    expect(signalQualityFromCsq(9)).toBe("cellEdge");
    expect(signalQualityFromCsq(10)).toBe("midCell");
    expect(signalQualityFromCsq(14)).toBe("midCell");
    expect(signalQualityFromCsq(15)).toBe("normal");
    expect(signalQualityFromCsq(19)).toBe("normal");
    expect(signalQualityFromCsq(20)).toBe("excellent");
    expect(signalQualityFromCsq(31)).toBe("excellent");
  });

  it("labels 99, missing and out-of-range values unknown", () => {
    for (const csq of [99, 32, -1, null, undefined, Number.NaN])
      expect(signalQualityFromCsq(csq)).toBe("unknown");
  });
});
