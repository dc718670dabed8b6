import {
  type AgentInstallLink,
  AgentInstallLinkSchema,
  type BrokerAddress,
  BrokersSchema,
  type DataPlan,
  type DeviceConnectInfo,
  DeviceConnectInfoSchema,
  type DeviceUsage,
  DeviceUsageSchema,
  type HistoryRange,
  NewDeviceKeySchema,
  type SignalHistory,
  SignalHistorySchema,
  SimPlanSavedSchema,
  type TagPlan,
  TagPlansSchema,
} from "@cellfleet/contract";
import { apiRequest } from "../../app/api/http";

/** POST /api/device/{dev_id}/signal: the range's buckets, outages, changes, reboots and timeline. */
export function getSignalHistory(
  id: string,
  range: HistoryRange,
  signal?: AbortSignal,
): Promise<SignalHistory> {
  return apiRequest("POST /api/device/{dev_id}/signal", {
    params: { dev_id: id },
    body: { range },
    schema: SignalHistorySchema,
    signal,
  });
}

/** POST /api/device/{dev_id}/usage: the SIMs of the router with their days, period and plan. */
export function getDeviceUsage(id: string, signal?: AbortSignal): Promise<DeviceUsage> {
  return apiRequest("POST /api/device/{dev_id}/usage", {
    params: { dev_id: id },
    schema: DeviceUsageSchema,
    signal,
  });
}

/** POST /api/device/{dev_id}/connect: what the router needs and the last refusal. */
export function getConnectInfo(id: string, signal?: AbortSignal): Promise<DeviceConnectInfo> {
  return apiRequest("POST /api/device/{dev_id}/connect", {
    params: { dev_id: id },
    schema: DeviceConnectInfoSchema,
    signal,
  });
}

/** POST /api/device/{dev_id}/key: a new key, answered this once. */
export async function newDeviceKey(id: string): Promise<string> {
  return (
    await apiRequest("POST /api/device/{dev_id}/key", { params: { dev_id: id }, schema: NewDeviceKeySchema })
  ).aes_key;
}

/** POST /api/device/{dev_id}/install: the agent's one-line install, its link serving once for minutes. */
export function newInstallLink(id: string): Promise<AgentInstallLink> {
  return apiRequest("POST /api/device/{dev_id}/install", {
    params: { dev_id: id },
    schema: AgentInstallLinkSchema,
  });
}

/** POST /api/sim/{iccid}/plan: a SIM's own plan, or null to remove it. */
export async function setSimPlan(iccid: string, plan: DataPlan | null): Promise<void> {
  await apiRequest("POST /api/sim/{iccid}/plan", {
    params: { iccid },
    body: { plan },
    schema: SimPlanSavedSchema,
    quiet: true,
  });
}

/** POST /api/plans/tag: a tag's plan, or null to remove it. */
export async function setTagPlan(tag: string, plan: DataPlan | null): Promise<TagPlan[]> {
  return (
    await apiRequest("POST /api/plans/tag", { body: { tag, plan }, schema: TagPlansSchema, quiet: true })
  ).plans;
}

/** POST /api/devices/connect: where routers connect. */
export async function getBrokers(signal?: AbortSignal): Promise<BrokerAddress[]> {
  return (await apiRequest("POST /api/devices/connect", { body: {}, schema: BrokersSchema, signal })).brokers;
}
