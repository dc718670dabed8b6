import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HIDDEN_VALUE, sanitizeAuditInfo } from "./sanitize";

describe("sanitizeAuditInfo properties", () => {
  it("never lets a value under a password or _id key through, at any depth", () => {
    const secret = "S3cret-value-never-logged";
    const secretKey = fc.constantFrom(
      "password",
      "new_password",
      "Password2",
      "user_id",
      "policy_id",
      "token",
    );
    const tree = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        fc.string({ maxLength: 8 }),
        fc.integer(),
        fc.array(tie("node"), { maxLength: 3 }),
        fc.dictionary(
          fc.string({ maxLength: 6 }).filter((key) => !/password|_id|token|^key$|^code$/i.test(key)),
          tie("node"),
          { maxKeys: 3 },
        ),
      ),
    })).node;
    fc.assert(
      fc.property(
        tree,
        secretKey,
        fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
        (base, key, path) => {
          // Plant the secret under a secret key somewhere along `path`.
          const root: Record<string, unknown> = { base };
          let cursor = root;
          for (const step of path) {
            const next: Record<string, unknown> = {};
            cursor[`n${step}`] = next;
            cursor = next;
          }
          cursor[key] = secret;
          const cleaned = JSON.stringify(sanitizeAuditInfo(root));
          expect(cleaned).not.toContain(secret);
          expect(cleaned).toContain(HIDDEN_VALUE);
        },
      ),
    );
  });

  it("keeps device_id", () => {
    expect(sanitizeAuditInfo({ device_id: "abc" })).toEqual({ device_id: "abc" });
  });
});

describe("sanitizeAuditInfo hides secrets whatever the body's shape", () => {
  const deviceKey = "A1".repeat(32);

  it("hides a device's AES key and any other key or credential field, keeping has_key", () => {
    const cleaned = sanitizeAuditInfo({
      ident: "R1",
      aes_key: deviceKey,
      api_key: "k",
      credentials: { user: "u" },
      has_key: true,
    });
    expect(cleaned).toEqual({
      ident: "R1",
      aes_key: "***",
      api_key: "***",
      credentials: "***",
      has_key: true,
    });
  });

  it("hides keys, bot tokens and URL credentials inside text (a pasted CSV, a note)", () => {
    const text = [
      `ident,description,tags,key`,
      `R1,"first, router",a;b,${deviceKey}`,
      `note: bot 123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0 and s3://AKIA:wJalrXUtn@minio:9000/b`,
      `https://example.com/hook?token=abc123&x=1`,
    ].join("\n");
    const cleaned = JSON.stringify(sanitizeAuditInfo({ text }));
    for (const secret of [deviceKey, "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0", "wJalrXUtn", "abc123"]) {
      expect(cleaned).not.toContain(secret);
    }
    expect(cleaned).toContain("first, router");
    expect(cleaned).toContain("x=1");
  });
});
