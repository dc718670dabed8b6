import { describe, expect, it } from "vitest";
import { redactUrl } from "./redact-url";

describe("redactUrl", () => {
  it("hides the password of MQTT_URL in the 'device gateway ready' line", () => {
    expect(redactUrl("mqtts://cellfleet:s3cr%40t@broker.example.com:8883")).toBe(
      "mqtts://cellfleet:***@broker.example.com:8883",
    );
    expect(redactUrl("mqtt://127.0.0.1:1883")).toBe("mqtt://127.0.0.1:1883");
    expect(redactUrl("mqtt://user@host:1883")).toBe("mqtt://user@host:1883");
  });
});
