import type { LatestRollout, RolloutProgress, SoftwareRule } from "@cellfleet/contract";
import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { softwareKeys } from "./keys";
import { applySoftwarePush } from "./software.live";

function rule(id: string, status: number, updateTime: number): SoftwareRule {
  return {
    _id: id,
    name: id,
    url: `http://files/${id}.bin`,
    models: ["RUT955"],
    status,
    error: null,
    sync_time: null,
    series: null,
    file: null,
    create_time: 1,
    update_time: updateTime,
  };
}

function rollout(id: string, status: RolloutProgress["status"], created: string, updated: string) {
  return {
    _id: id,
    rule_id: "r1",
    version: "RUT9_R_1",
    status,
    stage: 0,
    pause_reason: null,
    total: 3,
    options: {} as RolloutProgress["options"],
    stages: [{ waiting: 0, sent: 1, succeeded: 0, failed: 0, skipped: 0 }],
    link_stage: null,
    failures: [],
    held: { offer: 0, window: 0, cellEdge: 0, backupSim: 0, roaming: 0 },
    domains: [],
    create_time: created,
    update_time: updated,
  } satisfies RolloutProgress;
}

const none = { rules: [], deleted: [], rollouts: [] };

describe("applySoftwarePush", () => {
  it("replaces pushed rules in the list and on their page, drops deleted ones, keeps a newer read", () => {
    const client = new QueryClient();
    client.setQueryData(softwareKeys.list(), [rule("r1", 0, 10), rule("r2", 2, 10), rule("r3", 0, 30)]);
    client.setQueryData(softwareKeys.rule("r1"), rule("r1", 0, 10));
    // r1 is Ready now; r3's push is older than what the list holds (it arrived late).
    applySoftwarePush(client, { ...none, rules: [rule("r1", 2, 20), rule("r3", 1, 20)], deleted: ["r2"] });
    const rows = client.getQueryData<SoftwareRule[]>(softwareKeys.list()) ?? [];
    expect(rows.map((row) => [row._id, row.status])).toEqual([
      ["r1", 2],
      ["r3", 0],
    ]);
    expect(client.getQueryData<SoftwareRule>(softwareKeys.rule("r1"))?.status).toBe(2);
    // A rule page nobody opened is not made up from a push.
    expect(client.getQueryData(softwareKeys.rule("r3"))).toBeUndefined();
  });

  it("reads a rule again when its push lands while a read of it is under way (that answer may predate the push)", async () => {
    const client = new QueryClient();
    const key = softwareKeys.rule("r1");
    // The page's first read left the server before the fetch was Ready; its answer lands after the push.
    const answers = [rule("r1", 1, 10), rule("r1", 2, 20)];
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reads = 0;
    const page = new QueryObserver(client, {
      queryKey: key,
      queryFn: async () => {
        const answer = answers[reads++] as SoftwareRule;
        if (reads === 1) await held;
        return answer;
      },
    });
    const unsubscribe = page.subscribe(() => {});
    await vi.waitFor(() => expect(reads).toBe(1));
    applySoftwarePush(client, { ...none, rules: [rule("r1", 2, 20)] });
    release();
    await vi.waitFor(() => {
      expect(client.isFetching({ queryKey: key })).toBe(0);
      expect(client.getQueryData<SoftwareRule>(key)?.status).toBe(2);
    });
    expect(reads).toBe(2);
    unsubscribe();
  });

  it("marks the list stale when a pushed rule is not in it (its place is the server's order)", () => {
    const client = new QueryClient();
    client.setQueryData(softwareKeys.list(), [rule("r1", 0, 10)]);
    applySoftwarePush(client, { ...none, rules: [rule("r9", 0, 10)] });
    expect(client.getQueryState(softwareKeys.list())?.isInvalidated).toBe(true);
  });

  it("moves the rollout card to a newer progress, never back to an older one, and on to a later rollout", () => {
    const client = new QueryClient();
    const key = softwareKeys.rollout("r1");
    client.setQueryData<LatestRollout>(key, { rollout: rollout("a", "running", "T1", "T5") });
    applySoftwarePush(client, { ...none, rollouts: [rollout("a", "paused", "T1", "T6")] });
    expect(client.getQueryData<LatestRollout>(key)?.rollout?.status).toBe("paused");
    applySoftwarePush(client, { ...none, rollouts: [rollout("a", "running", "T1", "T4")] });
    expect(client.getQueryData<LatestRollout>(key)?.rollout?.status).toBe("paused");
    applySoftwarePush(client, { ...none, rollouts: [rollout("b", "running", "T7", "T7")] });
    expect(client.getQueryData<LatestRollout>(key)?.rollout?._id).toBe("b");
    // A card with no rollout yet shows one started elsewhere.
    const other = softwareKeys.rollout("r2");
    client.setQueryData<LatestRollout>(other, { rollout: null });
    applySoftwarePush(client, {
      ...none,
      rollouts: [{ ...rollout("c", "running", "T8", "T8"), rule_id: "r2" }],
    });
    expect(client.getQueryData<LatestRollout>(other)?.rollout?._id).toBe("c");
  });
});
