import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callApi } from "../../test/accounting-helpers";
import { buildUser, uniqueName } from "../../test/factories";
import { catcherSmtp, type MailCatcher, mailText, startMailCatcher } from "../../test/mail-catcher";
import { createTestApp, type TestApp } from "../../test/test-app";

let t: TestApp;
let bare: TestApp;
let mail: MailCatcher;

beforeAll(async () => {
  mail = await startMailCatcher();
  t = await createTestApp({
    config: {
      smtp: catcherSmtp(mail),
      publicUrl: "https://console.example.com",
    },
  });
  bare = await createTestApp({ seed: false });
});
afterAll(async () => {
  await t?.close();
  await bare?.close();
  await mail?.close();
});

const api = (url: string, payload: object, token?: string) => callApi(t.app, "POST", url, token, payload);

function registration(email: string, key: string, overrides: object = {}) {
  return {
    company_name: uniqueName("Horns and Hooves"),
    tin: "7701234567",
    full_name: "Ostap Bender",
    email,
    phone: "+7 495 123-45-67",
    consent: true,
    key,
    ...overrides,
  };
}

describe("registration by e-mail", () => {
  it("goes from the key to the first sign-in and the own password", async () => {
    const email = `${uniqueName("ceo")}@company.ru`;
    expect((await api("/api/registry/code", { email })).status).toBe(200);
    const key = /registration key: (\d+)/.exec(mailText(await mail.waitFor(email)))?.[1] ?? "";
    expect(key).toMatch(/^\d{8}$/);

    const done = await api("/api/registry", registration(email, key));
    expect(done.status, done.text).toBe(200);
    expect(done.body.username).toBe(email);
    const text = mailText(await mail.waitFor(email, { after: 1 }));
    expect(text).toContain("https://console.example.com/login");
    const password = /Password: (\S+)/.exec(text)?.[1] ?? "";
    // Both mails went as jobs: neither the key nor the password was ever stored in clear, and the
    // sealed parts of the sent mails are erased.
    await t.jobs.runUntilIdle();
    const jobs = await t.db.selectFrom("jobs").selectAll().where("kind", "=", "mail.send").execute();
    expect(JSON.stringify(jobs)).not.toContain(password);
    expect(JSON.stringify(jobs)).not.toContain(key);
    const sent = jobs.filter((job) => JSON.stringify(job.payload).includes(email));
    expect(sent.map((job) => [job.state, job.sealed])).toEqual([
      ["done", null],
      ["done", null],
    ]);

    const login = await api("/api/login/", { username: email, password });
    expect(login.status, login.text).toBe(200);
    expect(login.body.role).toBe(2);
    expect(login.body.factory_password).toBe(true);
    const token = login.body.token as string;
    const changed = await api(
      "/api/profile",
      { password: { current: password, new: "My-own-pass-77", confirm: "My-own-pass-77" } },
      token,
    );
    expect(changed.status, changed.text).toBe(200);
    // The key works once.
    const again = await api("/api/registry", registration(email, key, { company_name: uniqueName("Other") }));
    expect(again.status).toBe(409);
  });

  it("answers REGISTRATION_CODE_FAILED for a wrong or expired key", async () => {
    const email = `${uniqueName("cfo")}@company.ru`;
    await api("/api/registry/code", { email });
    const key = /registration key: (\d+)/.exec(mailText(await mail.waitFor(email)))?.[1] ?? "";
    const wrong = await api("/api/registry", registration(email, "00000000"));
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe("REGISTRATION_CODE_FAILED");
    t.clock.advanceMinutes(31);
    expect((await api("/api/registry", registration(email, key))).body.code).toBe("REGISTRATION_CODE_FAILED");
  });

  it("requires consent and a valid corporate e-mail, TIN and phone (400)", async () => {
    for (const bad of [{ consent: false }, { email: "bad" }, { tin: "123" }, { phone: "1" }]) {
      const answer = await api("/api/registry", { ...registration("a@b.ru", "12345678"), ...bad });
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(answer.body.code).toBe("BAD_REQUEST");
    }
  });
});

describe("forgot and reset password", () => {
  it("e-mails a code that sets a new password, once", async () => {
    const user = await buildUser(t, { role: 4 });
    const email = `${uniqueName("op")}@example.com`;
    await t.db.updateTable("users").set({ email }).where("id", "=", user.id).execute();
    expect((await api("/api/password/forgot", { login: user.username })).body).toEqual({ ok: true });
    const text = mailText(await mail.waitFor(email));
    const code = /Code: (\S+)/.exec(text)?.[1] ?? "";
    expect(text).toContain(`https://console.example.com/login?reset=`);

    const weak = await api("/api/password/reset", { code, password: "short", confirm: "short" });
    expect(weak.body.code).toBe("PASSWORD_INVALID_MIN_LENGTH");
    const reset = await api("/api/password/reset", {
      code,
      password: "Reset-pass-55",
      confirm: "Reset-pass-55",
    });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body.username).toBe(user.username);
    expect((await api("/api/login/", { username: user.username, password: "Reset-pass-55" })).status).toBe(
      200,
    );
    expect((await api("/api/login/", { username: user.username, password: user.password })).status).toBe(401);
    const reused = await api("/api/password/reset", {
      code,
      password: "Other-pass-66",
      confirm: "Other-pass-66",
    });
    expect(reused.status).toBe(400);
  });

  it("answers the same for an unknown account and sends nothing", async () => {
    const before = mail.mails.length;
    const answer = await api("/api/password/forgot", { login: "nobody-at-all" });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ok: true });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(mail.mails.length).toBe(before);
  });

  it("refuses with a clear error when SMTP is not configured", async () => {
    const code = await callApi(bare.app, "POST", "/api/registry/code", undefined, { email: "x@y.ru" });
    expect(code.status).toBe(400);
    expect(code.body.code).toBe("OPERATION_IS_NOT_SUPPORTED");
    const forgot = await callApi(bare.app, "POST", "/api/password/forgot", undefined, { login: "root" });
    expect(forgot.body.code).toBe("OPERATION_IS_NOT_SUPPORTED");
  });
});
