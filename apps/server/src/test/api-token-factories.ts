import { expect } from "vitest";
import type { TestApp } from "./test-app";

const DAY = 86_400_000;

/**
 * Makes an API token as the signed-in `session` (ADR 040), carrying every action the person may
 * give one (or `permissions`), narrowed to `tagScope` (ADR 041); answers its Bearer secret.
 */
export async function buildApiToken(
  t: TestApp,
  session: string,
  options: { tagScope?: string[]; permissions?: string[] } = {},
): Promise<string> {
  const offered = await t.app.inject({
    method: "POST",
    url: "/api/tokens/options",
    headers: { token: session },
  });
  expect(offered.statusCode, offered.body).toBe(200);
  const answer = await t.app.inject({
    method: "POST",
    url: "/api/tokens/new",
    headers: { token: session },
    payload: {
      name: `test-${Math.random().toString(36).slice(2, 8)}`,
      expires_at: t.clock.now().getTime() + 30 * DAY,
      permissions: options.permissions ?? offered.json<{ permissions: string[] }>().permissions,
      tag_scope: options.tagScope ?? [],
    },
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<{ token: string }>().token;
}

/** The headers of a call made with an API token. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
