import { randomBytes } from "node:crypto";
import mqtt from "mqtt";
import { describe, expect, it } from "vitest";
import { connectDynsec, DynsecConnectionLostError, DynsecUnavailableError } from "./dynsec";

// The shared Mosquitto of the dev machine and CI has no dynamic-security plugin: nothing answers its
// control topic, so a command waits until the test decides what happens to its connection.
const MQTT_URL = process.env.TEST_MQTT_URL ?? "mqtt://127.0.0.1:1883";

describe("the dynamic-security client", () => {
  it("says at once that a command's connection closed before its answer, so the caller can ask again", async () => {
    const clientId = `cellfleet-dynsec-test-${randomBytes(4).toString("hex")}`;
    const dynsec = await connectDynsec(MQTT_URL, { clientId, timeoutMs: 20_000 });
    try {
      const started = Date.now();
      const answer = dynsec.send([{ command: "getClient", username: "cellfleet" }]);
      const outcome = answer.then(
        () => "answered",
        (error: unknown) => error,
      );
      // A second connection with the same client id takes the session over: the broker drops the
      // first one, as Mosquitto does to every client of an account whose roles change.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const intruder = await mqtt.connectAsync(MQTT_URL, { clientId, reconnectPeriod: 0 });
      await intruder.endAsync();
      const error = await outcome;
      expect(error).toBeInstanceOf(DynsecConnectionLostError);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await dynsec.close();
    }
  });

  it("says the plugin is missing when a connected broker never answers", async () => {
    const dynsec = await connectDynsec(MQTT_URL, {
      clientId: `cellfleet-dynsec-test-${randomBytes(4).toString("hex")}`,
      timeoutMs: 300,
    });
    try {
      await expect(dynsec.send([{ command: "listClients" }])).rejects.toBeInstanceOf(DynsecUnavailableError);
    } finally {
      await dynsec.close();
    }
  });
});
