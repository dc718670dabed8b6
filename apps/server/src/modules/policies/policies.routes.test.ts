import { DEFAULT_POLICY, PolicyDetailSchema, PolicyListAnswerSchema } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callApi } from "../../test/accounting-helpers";
import { buildDomain, buildPolicy, buildUser, signIn, uniqueName } from "../../test/factories";
import { MULTIPART_CONTENT_TYPE, multipartBody } from "../../test/multipart";
import { createTestApp, type TestApp } from "../../test/test-app";

let t: TestApp;
let rootToken: string;
let adminToken: string;
let domainId: string;

const api = (url: string, token: string | undefined, payload?: object) =>
  callApi(t.app, "POST", url, token, payload);

beforeAll(async () => {
  t = await createTestApp();
  domainId = (await buildDomain(t)).id;
  rootToken = await signIn(t.app, await buildUser(t, { role: 1 }));
  adminToken = await signIn(t.app, await buildUser(t, { role: 2, domainId }));
});
afterAll(async () => {
  await t.close();
});

const { is_default: _isDefault, ...policyFields } = DEFAULT_POLICY;
const newPolicy = (overrides: object = {}) => ({
  ...policyFields,
  name: uniqueName("Banking"),
  policy_level: 2,
  ...overrides,
});

function upload(policyId: string, kind: string, token: string, file?: { name: string; bytes: Buffer }) {
  const part = file
    ? { filename: file.name, bytes: file.bytes }
    : { field: "note", bytes: Buffer.from("nothing") };
  return t.app.inject({
    method: "POST",
    url: `/api/policy/${policyId}/dictionary/${kind}`,
    headers: { token, "content-type": MULTIPART_CONTENT_TYPE },
    payload: multipartBody([part]),
  });
}

describe("policies", () => {
  it("answers 401 anonymously and 403 to helpers", async () => {
    expect((await api("/api/policies/", undefined, {})).status).toBe(401);
    const helper = await signIn(t.app, await buildUser(t, { role: 3, domainId }));
    expect((await api("/api/policies/", helper, {})).status).toBe(403);
  });

  it("lets only the superuser create, with every field validated", async () => {
    expect((await api("/api/policy/new", adminToken, newPolicy())).status).toBe(403);
    const bad = await api(
      "/api/policy/new",
      rootToken,
      newPolicy({ password_min_length: 30, password_max_length: 20 }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("BAD_REQUEST");
    const created = await api(
      "/api/policy/new",
      rootToken,
      newPolicy({ expiration_strategy: "send_new_password" }),
    );
    expect(created.status, created.text).toBe(200);
    const policy = PolicyDetailSchema.parse(created.body);
    expect(policy.policy_level).toBe(2);
    expect(policy.domain_id).toBeNull();
  });

  it("lists without the default, searches, and hides another domain's policies from an admin", async () => {
    const own = await buildPolicy(t, domainId, { name: uniqueName("OwnPolicy") });
    const foreign = await buildPolicy(t, (await buildDomain(t)).id, { name: uniqueName("ForeignPolicy") });
    const list = PolicyListAnswerSchema.parse((await api("/api/policies/", adminToken, {})).body);
    const ids = list.items.map((item) => item._id);
    expect(ids).toContain(own);
    expect(ids).not.toContain(foreign);
    expect(list.items.some((item) => item.name === "default")).toBe(false);
    const found = PolicyListAnswerSchema.parse(
      (await api("/api/policies/", rootToken, { search: "foreignpol" })).body,
    );
    expect(found.items.map((item) => item._id)).toEqual([foreign]);
    expect((await api(`/api/policy/${foreign}`, adminToken, {})).status).toBe(404);
  });

  it("lets an admin change its domain's policy but not a global one", async () => {
    const own = await buildPolicy(t, domainId);
    const changed = await api(`/api/policy/${own}`, adminToken, { temporary_block_minutes: 33 });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.temporary_block_minutes).toBe(33);
    const global = await buildPolicy(t, null);
    expect((await api(`/api/policy/${global}`, adminToken, { temporary_block_minutes: 1 })).status).toBe(403);
  });

  it("answers an empty list and 403 on pages without the accounting plugin", async () => {
    const admin = await buildUser(t, { role: 2, domainId });
    await t.db
      .updateTable("users")
      .set({ plugins: JSON.stringify(["notification"]) })
      .where("id", "=", admin.id)
      .execute();
    const token = await signIn(t.app, admin);
    expect((await api("/api/policies/", token, {})).body).toEqual({ items: [] });
    const own = await buildPolicy(t, domainId);
    expect((await api(`/api/policy/${own}`, token, {})).status).toBe(403);
  });
});

describe("POST /api/accounting/domain", () => {
  it("answers the policies the domain may use, the default included", async () => {
    const own = await buildPolicy(t, domainId);
    const foreign = await buildPolicy(t, (await buildDomain(t)).id);
    const answer = PolicyListAnswerSchema.parse((await api("/api/accounting/domain", adminToken, {})).body);
    const ids = answer.items.map((item) => item._id);
    expect(ids).toContain(own);
    expect(ids).not.toContain(foreign);
    expect(answer.items.some((item) => item.name === "default")).toBe(true);
    const forDomain = PolicyListAnswerSchema.parse(
      (await api("/api/accounting/domain", rootToken, { domain_id: domainId })).body,
    );
    expect(forDomain.items.map((item) => item._id)).toContain(own);
    expect((await api("/api/accounting/domain", rootToken, { domain_id: "nope" })).body.code).toBe(
      "DOMAIN_NOT_FOUND",
    );
  });
});

describe("dictionary upload", () => {
  it("replaces the forbidden sequences with a .txt file's lines", async () => {
    const own = await buildPolicy(t, domainId);
    const response = await upload(own, "sequences", adminToken, {
      name: "seq.txt",
      bytes: Buffer.from("qwerty\r\n12345\n\nqwerty\n"),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().forbidden_sequences).toEqual(["qwerty", "12345"]);
    const csv = await upload(own, "phrases", adminToken, {
      name: "p.csv",
      bytes: Buffer.from('password,1\n"iloveyou",2\n'),
    });
    expect(csv.json().forbidden_phrases).toEqual(["password", "iloveyou"]);
  });

  it("answers DICTIONARY_FILE_NOT_GIVEN, DICTIONARY_FILE_NOT_TEXT and UNSUPPORTED_ENCODING", async () => {
    const own = await buildPolicy(t, domainId);
    expect((await upload(own, "sequences", adminToken)).json().code).toBe("DICTIONARY_FILE_NOT_GIVEN");
    const exe = await upload(own, "sequences", adminToken, { name: "list.exe", bytes: Buffer.from("abc") });
    expect(exe.json().code).toBe("DICTIONARY_FILE_NOT_TEXT");
    // "пароль" in windows-1251: not UTF-8.
    const cp1251 = Buffer.from([0xef, 0xe0, 0xf0, 0xee, 0xeb, 0xfc, 0x0a]);
    const encoded = await upload(own, "phrases", adminToken, { name: "list.txt", bytes: cp1251 });
    expect(encoded.statusCode).toBe(400);
    expect(encoded.json().code).toBe("UNSUPPORTED_ENCODING");
  });

  it("makes the uploaded entries count at the next password change", async () => {
    const own = await buildPolicy(t, domainId);
    await upload(own, "phrases", adminToken, { name: "p.txt", bytes: Buffer.from("cellfleet\n") });
    const user = await buildUser(t, { role: 4, domainId, policyId: own });
    const answer = await api(`/api/user/${user.id}`, adminToken, { password: "MyCellfleet-9" });
    expect(answer.body.code).toBe("PASSWORD_INVALID_PHRASE");
  });
});
