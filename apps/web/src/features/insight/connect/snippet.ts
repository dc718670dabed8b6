import { type BrokerAddress, PROTOCOL_TOPIC_ROOT } from "@cellfleet/contract";

/** What the snippet is built from: the router's ident, a broker, and the key or token when known. */
export interface SnippetInput {
  ident: string;
  broker: BrokerAddress;
  /** The key, only right after it was made (it is never shown again). */
  key: string | null;
  /** The token computed in the browser from that key, when the browser could (WebCrypto). */
  token: string | null;
  /** The snippet's comment lines, in the interface language. */
  comments: { key: string; token: string; hello: string; commands: string };
}

/** The placeholder the person replaces with the router's key when the console no longer knows it. */
export const KEY_PLACEHOLDER = "<the router's 64-hex key>";

/**
 * A shell snippet that checks a router's credentials end to end with the Mosquitto clients: the
 * token as docs/device-protocol.md 2 derives it (OpenSSL), a `hello` that gives the router its first
 * contact, and a subscription to its commands. Both connect as the router does (client id = username
 * = ident, MQTT 3.1.1, QoS 1), so a refusal here is the refusal the router would get.
 */
export function buildConnectSnippet(input: SnippetInput): string {
  const { ident, broker } = input;
  const tls = broker.is_tls ? " --capath /etc/ssl/certs" : "";
  // Continued lines, so the commands read on a narrow screen; the shell joins them again.
  const connect = `-h ${broker.host} -p ${broker.port}${tls} -V mqttv311 -q 1 \\\n  -i "$IDENT" -u "$IDENT" -P "$TOKEN"`;
  const hello =
    `'{"v":1,"seq":1,"ts":'"$(date +%s)000"',"model":"mosquitto_pub","firmware":"0","serial":"0",` +
    `"uptime":0,"agent_version":"shell","modem_count":0}'`;
  const token = input.token
    ? `TOKEN=${input.token}`
    : `TOKEN=$(printf '${PROTOCOL_TOPIC_ROOT}/%s' "$IDENT" | openssl dgst -sha256 -mac HMAC -macopt "hexkey:$KEY" | awk '{print $NF}')`;
  return [
    `IDENT=${ident}`,
    `# ${input.comments.key}`,
    `KEY=${input.key ?? `'${KEY_PLACEHOLDER}'`}`,
    `# ${input.comments.token}`,
    token,
    `# ${input.comments.hello}`,
    `mosquitto_pub ${connect} \\\n  -t "${PROTOCOL_TOPIC_ROOT}/$IDENT/hello" \\\n  -m ${hello}`,
    `# ${input.comments.commands}`,
    `mosquitto_sub ${connect} \\\n  -t "${PROTOCOL_TOPIC_ROOT}/$IDENT/command" -v`,
  ].join("\n");
}
