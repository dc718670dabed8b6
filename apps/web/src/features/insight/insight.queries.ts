import type { DataPlan, HistoryRange } from "@cellfleet/contract";
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { devicesKeys } from "../../app/queryKeys";
import {
  getBrokers,
  getConnectInfo,
  getDeviceUsage,
  getSignalHistory,
  newDeviceKey,
  newInstallLink,
  setSimPlan,
  setTagPlan,
} from "./insight.api";
import { insightKeys } from "./keys";

/** A refetch a minute keeps the newest buckets coming in while the page stays open. */
const HISTORY_REFETCH_MS = 60_000;

export function signalHistoryQueryOptions(deviceId: string, range: HistoryRange) {
  return queryOptions({
    queryKey: insightKeys.signal(deviceId, range),
    queryFn: ({ signal }) => getSignalHistory(deviceId, range, signal),
    placeholderData: keepPreviousData,
    refetchInterval: HISTORY_REFETCH_MS,
  });
}

export function deviceUsageQueryOptions(deviceId: string) {
  return queryOptions({
    queryKey: insightKeys.usage(deviceId),
    queryFn: ({ signal }) => getDeviceUsage(deviceId, signal),
    refetchInterval: 5 * HISTORY_REFETCH_MS,
  });
}

export function connectInfoQueryOptions(deviceId: string) {
  return queryOptions({
    queryKey: insightKeys.connect(deviceId),
    queryFn: ({ signal }) => getConnectInfo(deviceId, signal),
    // A router being set up is refused and retried: show the newest refusal without a reload.
    refetchInterval: 15_000,
  });
}

export function brokersQueryOptions() {
  return queryOptions({
    queryKey: insightKeys.brokers(),
    queryFn: ({ signal }) => getBrokers(signal),
    staleTime: 5 * 60_000,
  });
}

/** Replaces the router's key; the device and its connect card are read again (has_key). */
export function useNewDeviceKey(deviceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => newDeviceKey(deviceId),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: devicesKeys.detail(deviceId) }),
        queryClient.invalidateQueries({ queryKey: insightKeys.connect(deviceId) }),
      ]),
  });
}

/** Makes the router's one-line install; a router without a key was given one, so its page is read again. */
export function useNewInstallLink(deviceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => newInstallLink(deviceId),
    onSuccess: (link) =>
      link.is_key_made
        ? Promise.all([
            queryClient.invalidateQueries({ queryKey: devicesKeys.detail(deviceId) }),
            queryClient.invalidateQueries({ queryKey: insightKeys.connect(deviceId) }),
          ])
        : undefined,
  });
}

/** Sets a SIM's plan (`iccid`) or a tag's (`tag`); usage everywhere and the tag plans are read again. */
export function useSetPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { iccid: string; plan: DataPlan | null } | { tag: string; plan: DataPlan | null }) =>
      "iccid" in input
        ? setSimPlan(input.iccid, input.plan)
        : setTagPlan(input.tag, input.plan).then(() => undefined),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: insightKeys.usages() }),
        queryClient.invalidateQueries({ queryKey: insightKeys.plans() }),
      ]),
  });
}
