import { randomBytes } from "node:crypto";
import { SOCKET_CLOSE } from "@cellfleet/contract";
import { afterAll, describe, expect, it } from "vitest";
import { type MailCatcher, startMailCatcher } from "../../test/mail-catcher";
import {
  call,
  freshDatabase,
  makeDomainWithAdmin,
  type Node,
  nextDevicesMessage,
  onCleanup,
  openReadySocket,
  runCleanups,
  serverUrl,
  signIn,
  signInFirstTime,
  startNode,
  unique,
} from "./two-nodes.test-support";

// Two server processes from the same code on one PostgreSQL database and one networked bus (the
// shared NATS on 4222 and Redis on 6379): what one node does reaches the sockets and the session
// cache of the other. PostgreSQL only (PGlite is one process's own), so it runs in the DATABASE_URL pass.

afterAll(runCleanups);

/** The description of the device as the node's device list (NDJSON, first page) shows it. */
async function listedDescription(node: Node, token: string, ident: string): Promise<unknown> {
  const response = await fetch(`${node.base}/api/devices/`, {
    method: "POST",
    headers: { "content-type": "application/json", token },
    body: JSON.stringify({ page: 0, size: 10 }),
  });
  const lines = (await response.text())
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  return lines.find((line) => line.ident === ident)?.description;
}

describe.skipIf(!serverUrl).each([
  { bus: "nats", busUrl: "nats://127.0.0.1:4222" },
  { bus: "redis", busUrl: "redis://127.0.0.1:6379" },
])("two server nodes on one PostgreSQL and the $bus bus", ({ bus, busUrl }) => {
  it("share device updates, session ends, session-cache clears and jobs", { timeout: 90_000 }, async () => {
    const databaseUrl = await freshDatabase();
    const mail: MailCatcher = await startMailCatcher();
    onCleanup(() => mail.close());
    // Node B only serves (JOBS_WORKER=0): every job it queues must be run by node A.
    const [a, b] = await Promise.all([
      startNode("A", databaseUrl, busUrl, { smtpUrl: mail.url, runsJobs: true }),
      startNode("B", databaseUrl, busUrl, { smtpUrl: mail.url, runsJobs: false }),
    ]);
    for (const node of [a, b]) expect(node.output()).toContain(`"bus":"${bus}"`);

    // Root makes a domain and its admin through node B.
    const { adminName, adminToken } = await makeDomainWithAdmin(b);

    // (a) A socket on node A hears of a device created, then edited, through node B.
    const watcher = await openReadySocket(a, adminToken);
    const ident = `NODES${randomBytes(4).toString("hex").toUpperCase()}`;
    const created = await call(b, "/api/devices/new", adminToken, { ident, description: "first" });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(await nextDevicesMessage(watcher, ident)).toMatchObject({ type: "devices" });
    // Node A's list page, kept until the domain changes (ADR 046), is read again once A hears of B's edit.
    expect(await listedDescription(a, adminToken, ident)).toBe("first");
    const edited = await call(b, `/api/device/${created.body._id}/edit`, adminToken, {
      description: "edited on B",
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const update = await nextDevicesMessage(watcher, ident);
    expect(update).toMatchObject({ type: "devices", content: [{ ident, description: "edited on B" }] });
    expect(await listedDescription(a, adminToken, ident)).toBe("edited on B");

    // (b) Signing out on node B closes that session's socket on node A, and only that one.
    const secondToken = await signIn(a, adminName, "Admin-pass-123-New9");
    const leaving = await openReadySocket(a, secondToken);
    expect((await call(b, "/api/logout/", secondToken)).status).toBe(200);
    expect(await leaving.closed).toMatchObject({ code: SOCKET_CLOSE.sessionEnded });
    expect(watcher.ws.readyState).toBe(watcher.ws.OPEN);

    // (c) Node A's cached session forgets at once what node B changed: the user blocked on B is
    // refused on A by the very next call, well inside the cache's 5 seconds.
    const operatorName = unique("operator");
    const operator = await call(b, "/api/user/new", adminToken, {
      username: operatorName,
      full_name: "An Operator",
      role: 4,
      email: "",
      phone: "",
      password: "Operator-pass-1",
    });
    expect(operator.status, JSON.stringify(operator.body)).toBe(200);
    const operatorToken = await signInFirstTime(a, operatorName, "Operator-pass-1");
    // A route that saves nothing (the profile route may, so it clears the cache on every call).
    expect((await call(a, "/api/accounting/self", operatorToken)).status).toBe(200);
    expect((await call(a, "/api/accounting/self", operatorToken)).status).toBe(200); // from A's cache
    const blockedAt = Date.now();
    const blocked = await call(b, `/api/user/${operator.body._id}`, adminToken, { blocked: true });
    expect(blocked.status, JSON.stringify(blocked.body)).toBe(200);
    const refused = await call(a, "/api/accounting/self", operatorToken);
    expect(Date.now() - blockedAt).toBeLessThan(5000);
    expect(refused.status, JSON.stringify(refused.body)).not.toBe(200);
    expect(refused.body.code).toMatch(/BLOCKED|SESSION|TOKEN/);

    // (d) Jobs queued on node B run once, on node A, woken through the bus: a registration key
    // requested from B reaches the mailbox exactly once, well before A's 1 s poll would find it.
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) {
      const email = `${unique("keys")}@company.ru`.toLowerCase();
      const askedAt = Date.now();
      const asked = await call(b, "/api/registry/code", undefined, { email });
      expect(asked.status, JSON.stringify(asked.body)).toBe(200);
      await mail.waitFor(email, { timeoutMs: 10_000 });
      delays.push(Date.now() - askedAt);
      expect(mail.mails.filter((caught) => caught.to.includes(email))).toHaveLength(1);
    }
    await new Promise((resolve) => setTimeout(resolve, 1500)); // a second delivery would show by now
    expect(mail.mails).toHaveLength(8);
    // With only A's poll every second the delays would spread evenly over 0-1 s (and more); woken
    // through the bus, most are SMTP's few milliseconds.
    const quick = delays.filter((ms) => ms < 300).length;
    expect(quick, `delays ${delays.join(", ")} ms`).toBeGreaterThanOrEqual(6);
    expect(b.output()).toContain("JOBS_WORKER=0");
  });
});
