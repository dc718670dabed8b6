import { randomUUID } from "node:crypto";
import { DomainDetailSchema, DomainListAnswerSchema } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callApi } from "../../test/accounting-helpers";
import { buildDomain, buildUser, signIn, uniqueName } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";

let t: TestApp;
let rootToken: string;
let adminToken: string;

const api = (method: "POST" | "DELETE", url: string, token: string | undefined, payload?: object) =>
  callApi(t.app, method, url, token, payload);

beforeAll(async () => {
  t = await createTestApp();
  rootToken = await signIn(t.app, await buildUser(t, { role: 1 }));
  adminToken = await signIn(t.app, await buildUser(t, { role: 2 }));
});
afterAll(async () => {
  await t.close();
});

async function addDevice(domainId: string, minutesAgo: number | null): Promise<void> {
  await t.db
    .insertInto("devices")
    .values({
      id: randomUUID(),
      domain_id: domainId,
      ident: uniqueName("dev").replace("_", ""),
      last_contact: minutesAgo === null ? null : new Date(t.clock.now().getTime() - minutesAgo * 60_000),
    })
    .execute();
}

const newDomain = (overrides: object = {}) => ({
  name: uniqueName("company"),
  full_name: "Company LLC",
  tin: "123456789",
  email: "office@company.ru",
  phone: "+7 (912) 345-67-89",
  manager: "Ivan Petrov",
  device_limit: 50,
  ...overrides,
});

describe("POST /api/domains/", () => {
  it("answers 401 anonymously and 403 to an admin", async () => {
    expect((await api("POST", "/api/domains/", undefined, {})).status).toBe(401);
    expect((await api("POST", "/api/domains/", adminToken, {})).status).toBe(403);
  });

  it("lists domains with last session and device counts by the domain's own thresholds", async () => {
    const domain = await buildDomain(t, { manager: "Unique Manager Zed", tin: "987654321" });
    // Default thresholds: online up to 15 minutes, warning up to 60.
    await addDevice(domain.id, 1);
    await addDevice(domain.id, 15);
    await addDevice(domain.id, 30);
    await addDevice(domain.id, 61);
    await addDevice(domain.id, 600);
    await addDevice(domain.id, null);
    const answer = await api("POST", "/api/domains/", rootToken, { search: "unique manager zed" });
    expect(answer.status, answer.text).toBe(200);
    const list = DomainListAnswerSchema.parse(answer.body);
    expect(list.total).toBe(1);
    expect(list.items[0]?.devices).toEqual({ online: 2, warning: 1, critical: 2 });
    const byTin = DomainListAnswerSchema.parse(
      (await api("POST", "/api/domains/", rootToken, { search: "98765432" })).body,
    );
    expect(byTin.items.map((item) => item._id)).toEqual([domain.id]);
  });

  it("counts a router within the pending band as none of online, warning and critical", async () => {
    const domain = await buildDomain(t, {
      manager: "Pending Band Manager",
      settings: {
        status: [
          { name: "online", minutes: 15 },
          { name: "pending", minutes: 30 },
          { name: "warning", minutes: 60 },
        ],
        backup: { copies: 10 },
        journal: { copies: 10 },
      },
    });
    for (const minutes of [1, 20, 30, 45, 61]) await addDevice(domain.id, minutes);
    const answer = await api("POST", "/api/domains/", rootToken, { search: "pending band manager" });
    const list = DomainListAnswerSchema.parse(answer.body);
    expect(list.items[0]?.devices).toEqual({ online: 1, warning: 1, critical: 1 });
  });

  it("answers 400 to a bad body", async () => {
    const answer = await api("POST", "/api/domains/", rootToken, { limit: -1 });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe("BAD_REQUEST");
  });
});

describe("POST /api/domains/new and /api/domain/{domain_id}", () => {
  it("creates, reads and changes a domain", async () => {
    const created = await api("POST", "/api/domains/new", rootToken, newDomain());
    expect(created.status, created.text).toBe(200);
    const domain = DomainDetailSchema.parse(created.body);
    expect(domain.device_limit).toBe(50);
    const read = DomainDetailSchema.parse(
      (await api("POST", `/api/domain/${domain._id}`, rootToken, {})).body,
    );
    expect(read.name).toBe(domain.name);
    const changed = await api("POST", `/api/domain/${domain._id}`, rootToken, {
      manager: "Anna",
      device_limit: null,
    });
    expect(changed.status, changed.text).toBe(200);
    const after = DomainDetailSchema.parse(changed.body);
    expect(after.manager).toBe("Anna");
    expect(after.device_limit).toBeNull();
    // Fields not sent stay as they were.
    expect(after.email).toBe("office@company.ru");
    expect(after.tin).toBe("123456789");
  });

  it("answers DOMAIN_ALREADY_EXIST for a taken name", async () => {
    const body = newDomain();
    expect((await api("POST", "/api/domains/new", rootToken, body)).status).toBe(200);
    const again = await api("POST", "/api/domains/new", rootToken, body);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("DOMAIN_ALREADY_EXIST");
  });

  it("validates TIN, e-mail and phone", async () => {
    for (const bad of [{ tin: "12345" }, { email: "not-an-email" }, { phone: "12" }]) {
      const answer = await api("POST", "/api/domains/new", rootToken, newDomain(bad));
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(answer.body.code).toBe("BAD_REQUEST");
    }
  });

  it("answers DOMAIN_NOT_FOUND for an unknown domain and 403 to an admin", async () => {
    const missing = await api("POST", "/api/domain/nope", rootToken, {});
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("DOMAIN_NOT_FOUND");
    const domain = await buildDomain(t);
    expect((await api("POST", `/api/domain/${domain.id}`, adminToken, {})).status).toBe(403);
  });
});

describe("domain admins", () => {
  it("creates, lists, changes and removes an admin of a domain", async () => {
    const domain = await buildDomain(t);
    const created = await api("POST", `/api/domain/${domain.id}/admins/new`, rootToken, {
      username: uniqueName("boss"),
      full_name: "The Boss",
      email: "",
      password: "Admin-pass-123",
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body.role).toBe(2);
    const adminId = created.body._id as string;
    const list = await api("POST", `/api/domain/${domain.id}/admins/`, rootToken, {});
    expect((list.body.items as { _id: string }[]).map((item) => item._id)).toEqual([adminId]);
    const detail = DomainDetailSchema.parse(
      (await api("POST", `/api/domain/${domain.id}`, rootToken, {})).body,
    );
    expect(detail.admins.map((item) => item._id)).toEqual([adminId]);
    const changed = await api("POST", `/api/domain/${domain.id}/admins/${adminId}`, rootToken, {
      full_name: "Renamed",
    });
    expect(changed.body.full_name).toBe("Renamed");
    const other = await buildDomain(t);
    expect((await api("POST", `/api/domain/${other.id}/admins/${adminId}`, rootToken, {})).status).toBe(404);
    expect((await api("DELETE", `/api/domain/${domain.id}/admins/${adminId}`, rootToken)).status).toBe(200);
    expect((await api("POST", `/api/domain/${domain.id}/admins/${adminId}`, rootToken, {})).body.code).toBe(
      "USER_REMOVED",
    );
  });
});

describe("superusers", () => {
  it("lists, creates and changes superusers; admins get 403", async () => {
    const created = await api("POST", "/api/superuser/new", rootToken, {
      username: uniqueName("super"),
      full_name: "Second Root",
      password: "Super-pass-123",
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body.role).toBe(1);
    expect(created.body.domain_id).toBeNull();
    const id = created.body._id as string;
    const list = await api("POST", "/api/superusers/", rootToken, {});
    expect((list.body.items as { _id: string }[]).map((item) => item._id)).toContain(id);
    expect(
      (await api("POST", `/api/superuser/${id}`, rootToken, { phone: "+7 900 000-00-00" })).body.phone,
    ).toBe("+7 900 000-00-00");
    expect((await api("POST", "/api/superusers/", adminToken, {})).status).toBe(403);
    expect((await api("DELETE", `/api/superuser/${id}`, rootToken)).status).toBe(200);
  });
});

describe("the demo domain (issue 11: root's list said 'Total: 0' beside it)", () => {
  it("is listed and readable by root, and refuses changes with DEMO_PERMISSIONS_DENIED", async () => {
    const demo = await t.db
      .selectFrom("domains")
      .select("id")
      .where("is_demo", "=", true)
      .executeTakeFirstOrThrow();
    const list = DomainListAnswerSchema.parse((await api("POST", "/api/domains/", rootToken, {})).body);
    expect(list.items.map((domain) => domain._id)).toContain(demo.id);
    expect(list.total).toBeGreaterThanOrEqual(1);
    expect((await api("POST", `/api/domain/${demo.id}`, rootToken, {})).status).toBe(200);
    const changed = await api("POST", `/api/domain/${demo.id}`, rootToken, { manager: "Someone" });
    expect(changed.status).toBe(403);
    expect(changed.body.code).toBe("DEMO_PERMISSIONS_DENIED");
    const admin = await api("POST", `/api/domain/${demo.id}/admins/new`, rootToken, {
      username: `demoadmin${randomUUID().slice(0, 6)}`,
      full_name: "Demo Admin",
      password: "Secret-pass-1",
    });
    expect(admin.body.code).toBe("DEMO_PERMISSIONS_DENIED");
    expect((await api("POST", `/api/domain/${demo.id}/admins/`, rootToken, {})).status).toBe(200);
  });
});
