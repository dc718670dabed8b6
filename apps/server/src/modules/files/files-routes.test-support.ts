import type { LightMyRequestResponse } from "fastify";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";

/** A firmware's bytes for the files tests. */
export const FIRMWARE = Buffer.from("RUT9 firmware image\n".repeat(500));

/** An app (jobs not run) with a domain, its admin, helper and operator, and another domain's admin. */
export interface FilesFixture {
  t: TestApp;
  domainId: string;
  admin: string;
  helper: string;
  operator: string;
  stranger: string;
}

export async function createFilesFixture(): Promise<FilesFixture> {
  const t = await createTestApp({ runJobs: false });
  const domainId = (await buildDomain(t)).id;
  return {
    t,
    domainId,
    admin: await signIn(t.app, await buildUser(t, { role: 2, domainId })),
    helper: await signIn(t.app, await buildUser(t, { role: 3, domainId })),
    operator: await signIn(t.app, await buildUser(t, { role: 4, domainId })),
    stranger: await signIn(t.app, await buildUser(t, { role: 2 })),
  };
}

/** `POST /api/commonfiles`: the common files, or with a body a router's files. */
export function listFiles(
  t: TestApp,
  token: string,
  body: object | null = null,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: "POST",
    url: "/api/commonfiles",
    headers: { token },
    payload: body ?? undefined,
  });
}
