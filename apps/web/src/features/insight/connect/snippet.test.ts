import { describe, expect, it } from "vitest";
import { buildConnectSnippet, KEY_PLACEHOLDER } from "./snippet";

const comments = { key: "key", token: "token", hello: "hello", commands: "commands" };
/** The snippet as the shell reads it: continued lines joined. */
const joined = (text: string) => text.replaceAll(" \\\n  ", " ");
const plain = { url: "mqtt://fleet.example.com:1883", is_tls: false, host: "fleet.example.com", port: 1883 };

describe("buildConnectSnippet", () => {
  it("derives the token with OpenSSL when the console no longer knows the key", () => {
    const text = joined(
      buildConnectSnippet({ ident: "RUT0001", broker: plain, key: null, token: null, comments }),
    );
    expect(text).toContain(`KEY='${KEY_PLACEHOLDER}'`);
    expect(text).toContain(
      `TOKEN=$(printf 'cellfleet/v1/%s' "$IDENT" | openssl dgst -sha256 -mac HMAC -macopt "hexkey:$KEY"`,
    );
    expect(text).toContain(
      'mosquitto_pub -h fleet.example.com -p 1883 -V mqttv311 -q 1 -i "$IDENT" -u "$IDENT" -P "$TOKEN" -t "cellfleet/v1/$IDENT/hello"',
    );
    expect(text).toContain(
      'mosquitto_sub -h fleet.example.com -p 1883 -V mqttv311 -q 1 -i "$IDENT" -u "$IDENT" -P "$TOKEN" -t "cellfleet/v1/$IDENT/command" -v',
    );
    expect(text).not.toContain("--capath");
  });

  it("puts a key just made, and its token, in the snippet, and verifies the server over TLS", () => {
    const tls = {
      url: "mqtts://fleet.example.com:8883",
      is_tls: true,
      host: "fleet.example.com",
      port: 8883,
    };
    const text = joined(
      buildConnectSnippet({
        ident: "RUT0001",
        broker: tls,
        key: "AB".repeat(32),
        token: "cd".repeat(32),
        comments,
      }),
    );
    expect(text).toContain(`KEY=${"AB".repeat(32)}`);
    expect(text).toContain(`TOKEN=${"cd".repeat(32)}`);
    expect(text).toContain("-p 8883 --capath /etc/ssl/certs");
  });
});
