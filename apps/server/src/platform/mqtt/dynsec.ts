import { randomUUID } from "node:crypto";
import mqtt, { type MqttClient } from "mqtt";

/** Mosquitto's dynamic-security control topic and its answers. */
export const DYNSEC_TOPIC = "$CONTROL/dynamic-security/v1";
const DYNSEC_RESPONSE_TOPIC = `${DYNSEC_TOPIC}/response`;

/** One command of the plugin's control API (mosquitto.org/documentation/dynamic-security). */
export type DynsecCommand = { command: string } & Record<string, unknown>;

/** One answer: `error` is absent when the command succeeded. */
export interface DynsecResponse {
  command: string;
  error?: string;
  data?: unknown;
}

/** Thrown when the broker does not answer the control topic (no plugin, or the account may not use it). */
export class DynsecUnavailableError extends Error {
  override name = "DynsecUnavailableError";
}

/**
 * Thrown when the connection closed while a command waited for its answer: the broker may have
 * answered a client that was gone (Mosquitto disconnects every client of an account whose roles
 * change, another server node's start included). Sending again may work.
 */
export class DynsecConnectionLostError extends Error {
  override name = "DynsecConnectionLostError";
}

/** A command's answer still awaited, by its correlation data. */
interface PendingAnswer {
  resolve(responses: DynsecResponse[]): void;
  reject(error: Error): void;
}

/** A connection to Mosquitto's dynamic-security plugin. */
export interface DynsecClient {
  /** Sends commands in one message and answers their responses in order. */
  send(commands: readonly DynsecCommand[]): Promise<DynsecResponse[]>;
  /**
   * Sends commands without waiting for an answer: for a change to this connection's own account,
   * after which the plugin disconnects it (Mosquitto kicks a client whose roles change) and the
   * answer is lost. The client reconnects by itself.
   */
  post(commands: readonly DynsecCommand[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * Connects to the broker with the server's own account (MQTT_URL's user name and password, which
 * needs the plugin's `admin` role or one that may use $CONTROL/dynamic-security/#) and talks to the
 * plugin. Commands of one message are answered in one response, matched by correlation data.
 */
export async function connectDynsec(
  url: string,
  options: { clientId: string; timeoutMs?: number },
): Promise<DynsecClient> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const client: MqttClient = await mqtt.connectAsync(url, {
    clientId: options.clientId,
    clean: true,
    protocolVersion: 4,
    reconnectPeriod: 1000,
    connectTimeout: timeoutMs,
  });
  const waiting = new Map<string, PendingAnswer>();
  client.on("message", (_topic, payload) => {
    let body: { responses?: Array<DynsecResponse & { correlationData?: string }> };
    try {
      body = JSON.parse(payload.toString("utf8"));
    } catch {
      return;
    }
    const responses = body.responses ?? [];
    const correlation = responses[0]?.correlationData;
    if (correlation === undefined) return;
    waiting.get(correlation)?.resolve(responses);
  });
  // An answer published while this client was away is lost (clean session): say so at once rather
  // than wait out the timeout, which would read as a broker without the plugin.
  client.on("close", () => {
    for (const pending of [...waiting.values()]) {
      pending.reject(new DynsecConnectionLostError("the connection to the broker closed before its answer"));
    }
  });
  const granted = await client.subscribeAsync(DYNSEC_RESPONSE_TOPIC, { qos: 1 });
  if (granted.some((grant) => grant.qos === 128)) {
    await client.endAsync(true);
    throw new DynsecUnavailableError(
      "the broker refused the dynamic-security response topic: MQTT_URL's account needs the plugin's admin role",
    );
  }
  return {
    async send(commands) {
      if (commands.length === 0) return [];
      const correlation = randomUUID();
      const answered = new Promise<DynsecResponse[]>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(correlation);
          reject(
            new DynsecUnavailableError(
              `no answer on ${DYNSEC_RESPONSE_TOPIC} within ${timeoutMs} ms: is the dynamic-security plugin loaded, and may MQTT_URL's account use it?`,
            ),
          );
        }, timeoutMs);
        waiting.set(correlation, {
          resolve(responses) {
            clearTimeout(timer);
            waiting.delete(correlation);
            resolve(responses);
          },
          reject(error) {
            clearTimeout(timer);
            waiting.delete(correlation);
            reject(error);
          },
        });
      });
      // Every command carries the same correlation data; the plugin answers them in order.
      const body = { commands: commands.map((command) => ({ ...command, correlationData: correlation })) };
      // Both awaited together: an answer lost while the publish is still on its way rejects here.
      const [, responses] = await Promise.all([
        client.publishAsync(DYNSEC_TOPIC, JSON.stringify(body), { qos: 1 }),
        answered,
      ]);
      return responses;
    },
    async post(commands) {
      await client.publishAsync(DYNSEC_TOPIC, JSON.stringify({ commands }), { qos: 1 });
    },
    async close() {
      await client.endAsync();
    },
  };
}
