import { generate } from "otplib";
import { expect } from "vitest";
import { callApi } from "../../test/accounting-helpers";
import type { BuiltUser } from "../../test/factories";
import type { TestApp } from "../../test/test-app";

/** The code an authenticator app shows for `secret` at the test clock's time, `stepsAhead` periods on. */
export function totpCode(t: TestApp, secret: string, stepsAhead = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(t.clock.now().getTime() / 1000) + stepsAhead * 30 });
}

/** Signs in with the password only: the answer (a session user, or the second step) and its cookie. */
export async function passwordStep(t: TestApp, user: BuiltUser, cookie?: string) {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/login/",
    payload: { username: user.username, password: user.password },
    ...(cookie ? { headers: { cookie } } : {}),
  });
  const setCookie = response.headers["set-cookie"];
  return {
    status: response.statusCode,
    body: response.json() as Record<string, unknown> & {
      code?: string;
      token?: string;
      second_factor?: { challenge_token: string; methods: string[]; remember_days: number };
    },
    cookie: setCookie ? String(setCookie).split(";")[0] : undefined,
  };
}

/** Sends the second step of a sign-in. */
export async function secondStep(t: TestApp, payload: object, cookie?: string) {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/login/second-factor",
    payload,
    ...(cookie ? { headers: { cookie } } : {}),
  });
  const setCookie = response.headers["set-cookie"];
  return {
    status: response.statusCode,
    body: response.json() as { code?: string; token?: string; second_factor_pending?: boolean },
    cookie: setCookie ? String(setCookie).split(";")[0] : undefined,
  };
}

/** Enrols an authenticator app for a signed-in person; answers its secret and the recovery codes. */
export async function enrolTotp(t: TestApp, token: string): Promise<{ secret: string; codes: string[] }> {
  const start = await callApi(t.app, "POST", "/api/profile/second-factor/totp/start", token);
  expect(start.status, start.text).toBe(200);
  const secret = start.body.secret as string;
  const confirm = await callApi(t.app, "POST", "/api/profile/second-factor/totp/confirm", token, {
    totp: await totpCode(t, secret),
  });
  expect(confirm.status, confirm.text).toBe(200);
  return { secret, codes: confirm.body.recovery_codes as string[] };
}
