import type { TunnelSession } from "@cellfleet/contract";
import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { tunnelsKeys } from "./keys";
import { applyPeers, tunnelsQueryOptions } from "./tunnels.queries";

const session = (state: TunnelSession["state"]): TunnelSession => ({
  _id: "s1",
  device_id: "d1",
  ident: "SIM000002",
  kind: "web",
  state,
  minutes: 30,
  author_id: "u1",
  author: "admin",
  author_role: 1,
  author_is_junior: false,
  approver: null,
  create_time: "2026-11-29T04:00:00.000Z",
  open_time: state === "open" ? "2026-11-29T04:00:01.000Z" : null,
  end_time: null,
  end_reason: null,
  bytes_up: 0,
  bytes_down: 0,
  has_recording: false,
});

describe("applyPeers", () => {
  it("keeps the pushed state when a fetch read before the change answers after it", async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    let answer: (sessions: TunnelSession[]) => void = () => {};
    // The list's fetch read the session still approved; its answer is late.
    const fetching = queryClient
      .fetchQuery({
        ...tunnelsQueryOptions(),
        queryFn: () =>
          new Promise<TunnelSession[]>((resolve) => {
            answer = resolve;
          }),
      })
      .catch(() => null);
    await Promise.resolve();
    // The router dialled in meanwhile: `peers` says open.
    const pushed = applyPeers(queryClient, [session("open")]);
    answer([session("approved")]);
    await Promise.all([pushed, fetching]);
    expect(queryClient.getQueryData<TunnelSession[]>(tunnelsKeys.list())?.[0]?.state).toBe("open");
  });

  it("puts the pushed list in place when nothing is being fetched", async () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(tunnelsKeys.list(), [session("approved")]);
    await applyPeers(queryClient, [session("open")]);
    expect(queryClient.getQueryData<TunnelSession[]>(tunnelsKeys.list())?.[0]?.state).toBe("open");
  });
});
