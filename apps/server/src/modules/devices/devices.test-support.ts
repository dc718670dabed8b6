import type { AddressInfo } from "node:net";
import { buildDomain, buildUser, signIn, signInDemo } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";

/** Sessions of every role the device route tests need: one domain's staff, a superuser, another domain's admin, demo. */
export interface DeviceTestTokens {
  admin: string;
  assistant: string;
  operator: string;
  root: string;
  otherAdmin: string;
  demo: string;
}

/** What the device route tests share: a listening app, two domains and the sessions. */
export interface DeviceTestSetup {
  t: TestApp;
  domainId: string;
  otherDomainId: string;
  tokens: DeviceTestTokens;
  socketUrl: string;
}

/** A 64-hex AES key in lowercase (the server stores it uppercase). */
export const KEY64 = "ab".repeat(32);

/** Builds the app (listening, for sockets), two domains and a session of each role. */
export async function setupDevicesTest(): Promise<DeviceTestSetup> {
  const t = await createTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const socketUrl = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/ws/`;
  const domainId = (await buildDomain(t)).id;
  const otherDomainId = (await buildDomain(t)).id;
  const tokens: DeviceTestTokens = {
    admin: await signIn(t.app, await buildUser(t, { role: 2, domainId })),
    assistant: await signIn(t.app, await buildUser(t, { role: 3, domainId })),
    operator: await signIn(t.app, await buildUser(t, { role: 4, domainId })),
    root: await signIn(t.app, await buildUser(t, { role: 1 })),
    otherAdmin: await signIn(t.app, await buildUser(t, { role: 2, domainId: otherDomainId })),
    demo: await signInDemo(t.app),
  };
  return { t, domainId, otherDomainId, tokens, socketUrl };
}

/** One call through app.inject: the status and the parsed body. */
export async function callApi(
  t: TestApp,
  token: string | null,
  method: "POST" | "DELETE",
  url: string,
  payload?: unknown,
) {
  const response = await t.app.inject({
    method,
    url,
    headers: token ? { token } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: response.statusCode, body: response.body ? response.json() : undefined };
}
