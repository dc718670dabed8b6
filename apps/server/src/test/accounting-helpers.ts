import type { FastifyInstance } from "fastify";

/** Calls the API as `token` (undefined: anonymously) and answers status and parsed body. */
export async function callApi(
  app: FastifyInstance,
  method: "POST" | "DELETE",
  url: string,
  token: string | undefined,
  payload?: object,
): Promise<{ status: number; body: Record<string, unknown> & { code?: string }; text: string }> {
  const response = await app.inject({
    method,
    url,
    ...(token === undefined ? {} : { headers: { token } }),
    ...(payload === undefined ? {} : { payload }),
  });
  let body: Record<string, unknown> = {};
  try {
    body = response.json();
  } catch {
    body = {};
  }
  return { status: response.statusCode, body, text: response.body };
}
