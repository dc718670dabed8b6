import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  BrokersSchema,
  DeviceConnectInfoSchema,
  DeviceUsageSchema,
  NewDeviceKeySchema,
  SetSimPlanSchema,
  SetTagPlanSchema,
  SignalDeclinesSchema,
  SignalHistoryRequestSchema,
  SignalHistorySchema,
  SimPlanSavedSchema,
  TagPlansSchema,
  TagSchema,
} from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { ERROR_RESPONSES, TokenOnlyBodySchema } from "../../platform/http/schemas";
import { publicBrokers, readConnectInfo, replaceDeviceKey } from "./connect.service";
import { readSignalDeclines } from "./declines.service";
import { readSignalHistory } from "./history.service";
import { listTagPlans, readDeviceUsage, setSimPlan, setTagPlan } from "./usage.service";

const DeviceParamsSchema = z.object({ dev_id: z.string().min(1).max(64) });
const IccidParamsSchema = z.object({ iccid: z.string().regex(/^\d{18,22}[Ff]?$/) });

/** The protocol document a router's agent follows, served as it is in the repository. */
export const PROTOCOL_DOC_PATH = path.resolve(import.meta.dirname, "../../../../../docs/device-protocol.md");

/** The embedded broker's port as it listens (main.ts knows it once the gateway runs), or null. */
export type GatewayPortSource = () => number | null;

/**
 * Device insight and onboarding (issue 18): signal history, SIM usage and plans, what a router
 * needs to connect with a new key, and the dashboard's routers whose signal got worse.
 */
export const insightRoutes: FastifyPluginAsyncZod<{
  ctx: AppContext;
  gatewayPort?: GatewayPortSource;
}> = async (app, { ctx, gatewayPort }) => {
  app.post(
    "/device/:dev_id/signal",
    {
      schema: {
        tags: ["insight"],
        summary:
          "Signal per modem by bucket (min, max, mean) over 1 h, 24 h, 7 d or 30 d, with outages, changes, reboots and the status timeline",
        params: DeviceParamsSchema,
        body: SignalHistoryRequestSchema.extend({ token: z.string().optional() }).nullish(),
        response: { 200: SignalHistorySchema, ...ERROR_RESPONSES },
      },
      config: { permission: "devices.view" },
    },
    async (request) =>
      readSignalHistory(ctx, requireSession(request), request.params.dev_id, request.body?.range ?? "24h"),
  );

  app.post(
    "/device/:dev_id/usage",
    {
      schema: {
        tags: ["insight"],
        summary:
          "Data usage of the SIMs the router held in the last 31 days, by ICCID and day, against their plans",
        params: DeviceParamsSchema,
        body: TokenOnlyBodySchema,
        response: { 200: DeviceUsageSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "devices.view" },
    },
    async (request) => readDeviceUsage(ctx, requireSession(request), request.params.dev_id),
  );

  app.post(
    "/device/:dev_id/connect",
    {
      schema: {
        tags: ["insight"],
        summary:
          "What a router needs to connect (broker addresses, ident, topics) and its last refused connection",
        params: DeviceParamsSchema,
        body: TokenOnlyBodySchema,
        response: { 200: DeviceConnectInfoSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "devices.view" },
    },
    async (request) =>
      readConnectInfo(ctx, requireSession(request), request.params.dev_id, gatewayPort?.() ?? null),
  );

  app.post(
    "/devices/connect",
    {
      schema: {
        tags: ["insight"],
        summary: "Where routers connect: the broker's public addresses (MQTT_PUBLIC_URL), plain and TLS",
        body: TokenOnlyBodySchema,
        response: { 200: BrokersSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "devices.view" },
    },
    async () => ({ brokers: publicBrokers(ctx.config, gatewayPort?.() ?? null) }),
  );

  app.post(
    "/device/:dev_id/key",
    {
      schema: {
        tags: ["insight"],
        summary: "Replace the device's AES key with a new random one, answered once",
        params: DeviceParamsSchema,
        body: TokenOnlyBodySchema,
        response: { 200: NewDeviceKeySchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "devices.edit" },
    },
    async (request) => replaceDeviceKey(ctx, requireSession(request), request.params.dev_id),
  );

  app.post(
    "/sim/:iccid/plan",
    {
      schema: {
        tags: ["insight"],
        summary: "Set or remove a SIM's own data plan (admins)",
        params: IccidParamsSchema,
        body: SetSimPlanSchema,
        response: { 200: SimPlanSavedSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "dataPlans.edit" },
    },
    async (request) => {
      await setSimPlan(ctx, requireSession(request), request.params.iccid.toUpperCase(), request.body.plan);
      return { ok: true as const };
    },
  );

  app.post(
    "/plans",
    {
      schema: {
        tags: ["insight"],
        summary: "The domain's data plans by tag",
        body: TokenOnlyBodySchema,
        response: { 200: TagPlansSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "devices.view" },
    },
    async (request) => ({ plans: await listTagPlans(ctx, requireSession(request)) }),
  );

  app.post(
    "/plans/tag",
    {
      schema: {
        tags: ["insight"],
        summary: "Set or remove the data plan of every SIM in a router with the tag (admins)",
        body: SetTagPlanSchema.extend({ tag: TagSchema }),
        response: { 200: TagPlansSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "dataPlans.edit" },
    },
    async (request) => ({
      plans: await setTagPlan(ctx, requireSession(request), request.body.tag, request.body.plan),
    }),
  );

  app.get(
    "/protocol.md",
    {
      schema: {
        tags: ["insight"],
        summary: "The device protocol (docs/device-protocol.md) that a router's agent follows, as Markdown",
        response: { 200: z.string(), ...ERROR_RESPONSES },
      },
      config: { isPublic: true },
    },
    async (_request, reply) =>
      reply.type("text/markdown; charset=utf-8").send(await readFile(PROTOCOL_DOC_PATH, "utf8")),
  );

  app.post(
    "/dashboard/signal",
    {
      schema: {
        tags: ["insight"],
        summary: "The routers whose signal got worse: the last 24 h against the 24 h before",
        body: TokenOnlyBodySchema,
        response: { 200: SignalDeclinesSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "devices.view" },
    },
    async (request) => readSignalDeclines(ctx, requireSession(request)),
  );
};
