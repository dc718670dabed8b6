import { timingSafeEqual } from "node:crypto";
import { identOfClientId } from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import { ERROR_RESPONSES } from "../../platform/http/schemas";
import {
  createDeviceAuthenticator,
  type DeviceAccess,
  isDeviceAccessAllowed,
  type ZeroTouchCheck,
} from "./device-auth";
import type { DeviceIngestStats } from "./ingest.runtime";
import type { RefusalRecorder } from "./refusal-recorder";

/** The header an external broker sends MQTT_AUTH_SECRET in. */
export const MQTT_AUTH_SECRET_HEADER = "x-cellfleet-mqtt-secret";

const DecisionSchema = z.object({
  result: z.enum(["allow", "deny"]),
  Ok: z.boolean(),
  Error: z.string().optional(),
});

const AuthBodySchema = z.object({
  clientid: z.string().max(256),
  username: z.string().max(256).optional(),
  password: z.string().max(1024).optional(),
  /** The client's IP, when the broker sends it (EMQX: `"peerhost": "${peerhost}"`); shown with a refusal. */
  peerhost: z.string().max(64).optional(),
});

// mosquitto-go-auth sends `acc` (1 read, 2 write, 3 read+write, 4 subscribe); EMQX sends `action`.
const AclBodySchema = z.object({
  clientid: z.string().max(256),
  username: z.string().max(256).optional(),
  topic: z.string().max(65_535),
  acc: z.coerce.number().int().optional(),
  action: z.enum(["publish", "subscribe"]).optional(),
});

function accessOf(body: z.infer<typeof AclBodySchema>): DeviceAccess | null {
  if (body.action) return body.action;
  if (body.acc === 2) return "publish";
  if (body.acc === 1 || body.acc === 4) return "subscribe";
  return null;
}

/** Gateway figures for superusers. */
export type MqttStatsSource = () => DeviceIngestStats | null;

function checkSecret(ctx: AppContext, given: string | string[] | undefined): void {
  const expected = ctx.config.mqttAuthSecret;
  const value = Array.isArray(given) ? given[0] : given;
  if (!expected || value === undefined)
    throw new AppError("ACCESS_DENIED", "MQTT auth endpoint: secret missing");
  const a = Buffer.from(expected);
  const b = Buffer.from(value);
  if (a.length !== b.length || !timingSafeEqual(a, b))
    throw new AppError("ACCESS_DENIED", "MQTT auth endpoint: wrong secret");
}

/**
 * The authentication and ACL hooks an external broker calls (mosquitto-go-auth's HTTP backend with
 * `http_params_mode json` and `http_response_mode status`, or EMQX's HTTP authenticator/authorizer:
 * both read 200 as allow and the body's `result`), plus GET /api/mqtt/stats for superusers.
 */
export const mqttRoutes: FastifyPluginAsyncZod<{
  ctx: AppContext;
  refusals: RefusalRecorder;
  stats?: MqttStatsSource;
  /** The zero-touch path for `zt1:` user names (modules/zerotouch), as the embedded broker has it. */
  zeroTouch?: ZeroTouchCheck;
}> = async (app, { ctx, refusals, stats, zeroTouch }) => {
  // Refusals the external broker asks about are recorded like the embedded broker's (issue 18), by
  // the process's one recorder (app.ts).
  const authenticate = createDeviceAuthenticator(ctx.db, refusals, zeroTouch);

  app.post(
    "/mqtt/auth",
    {
      schema: {
        tags: ["mqtt"],
        summary: "External broker: may this client connect? 200 allow, 403 deny",
        body: AuthBodySchema,
        response: { 200: DecisionSchema, 403: DecisionSchema.or(ERROR_RESPONSES["4xx"]), ...ERROR_RESPONSES },
      },
      config: { isPublic: true },
    },
    async (request, reply) => {
      checkSecret(ctx, request.headers[MQTT_AUTH_SECRET_HEADER]);
      const { clientid, username, password, peerhost } = request.body;
      const result = await authenticate(clientid, username, password, { address: peerhost });
      if (result.ok) return { result: "allow" as const, Ok: true };
      ctx.log.warn(
        { reason: result.reason, ident: clientid.slice(0, 100) },
        "mqtt auth refused (external broker)",
      );
      return reply.code(403).send({ result: "deny", Ok: false, Error: result.reason });
    },
  );

  app.post(
    "/mqtt/acl",
    {
      schema: {
        tags: ["mqtt"],
        summary: "External broker: may this client publish/subscribe on the topic? 200 allow, 403 deny",
        body: AclBodySchema,
        response: { 200: DecisionSchema, 403: DecisionSchema.or(ERROR_RESPONSES["4xx"]), ...ERROR_RESPONSES },
      },
      config: { isPublic: true },
    },
    async (request, reply) => {
      checkSecret(ctx, request.headers[MQTT_AUTH_SECRET_HEADER]);
      const access = accessOf(request.body);
      if (
        access &&
        isDeviceAccessAllowed(identOfClientId(request.body.clientid), access, request.body.topic)
      ) {
        return { result: "allow" as const, Ok: true };
      }
      return reply.code(403).send({ result: "deny", Ok: false, Error: "topic not allowed" });
    },
  );

  app.post(
    "/mqtt/superuser",
    {
      schema: {
        tags: ["mqtt"],
        summary: "External broker (mosquitto-go-auth): no device is a superuser; always 403",
        response: { 403: DecisionSchema.or(ERROR_RESPONSES["4xx"]), ...ERROR_RESPONSES },
      },
      config: { isPublic: true },
    },
    async (request, reply) => {
      checkSecret(ctx, request.headers[MQTT_AUTH_SECRET_HEADER]);
      return reply.code(403).send({ result: "deny", Ok: false, Error: "no superusers" });
    },
  );

  app.get(
    "/mqtt/stats",
    {
      schema: {
        tags: ["mqtt"],
        summary: "Gateway counters: connections, accepted reports, refusals by reason, ingest figures",
        response: { 200: z.record(z.string(), z.unknown()), ...ERROR_RESPONSES },
      },
      config: { permission: "mqtt.stats" },
    },
    async () => {
      const figures = stats?.();
      return figures ? { ...figures } : { mode: "off" };
    },
  );
};
