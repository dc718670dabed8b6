import { describe, expect, it } from "vitest";
import { decideTransportAction } from "./transportPolicy";

describe("decideTransportAction (spec section 8 and ADR 002)", () => {
  it.each([
    [401, "TOKEN_INVALID"],
    [401, "TOKEN_HAS_EXPIRED"],
    [401, "INACTIVITY_TIMEOUT"],
    [401, null],
    [403, "USER_BLOCKED"],
    [403, "PASSWORD_EXPIRED"],
    [403, null],
    [502, "PEER_NOT_CONNECTED"],
    [502, null],
  ])("logs out on %i %s", (status, code) => {
    expect(decideTransportAction(status, code)).toEqual({ kind: "logout", frame: "plain" });
  });

  it.each(["PERMISSION_DENIED", "PERMISSIONS_DENIED", "ACCESS_DENIED", "DEMO_PERMISSIONS_DENIED"])(
    "keeps the session on 403 %s and shows its text",
    (code) => {
      expect(decideTransportAction(403, code)).toEqual({ kind: "notify", frame: "plain" });
    },
  );

  it("still logs out on 401 with a permission code (only 403 is spared)", () => {
    expect(decideTransportAction(401, "PERMISSION_DENIED").kind).toBe("logout");
  });

  it("frames 500 and 501 as a server connection error", () => {
    expect(decideTransportAction(500, "WRITE_DATA_FAILED")).toEqual({ kind: "notify", frame: "connection" });
    expect(decideTransportAction(501, null)).toEqual({ kind: "notify", frame: "connection" });
  });

  it("shows a 400 by its code's text", () => {
    expect(decideTransportAction(400, "PASSWORD_INVALID")).toEqual({ kind: "notify", frame: "plain" });
  });

  it("frames any other status as a server error with the path", () => {
    for (const status of [409, 413, 429, 503, 200]) {
      expect(decideTransportAction(status, null)).toEqual({ kind: "notify", frame: "server" });
    }
  });

  it("shows a 404 by its code's text, without the path (the object is missing, not the server)", () => {
    expect(decideTransportAction(404, "DEVICE_NOT_FOUND")).toEqual({ kind: "notify", frame: "plain" });
  });

  it("reports a missing answer as a communication error", () => {
    expect(decideTransportAction(0, null)).toEqual({ kind: "notify", frame: "network" });
  });
});
