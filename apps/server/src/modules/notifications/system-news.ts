import { randomUUID } from "node:crypto";
import type { NewsItem } from "@cellfleet/contract";
import type { AppContext } from "../../platform/context";
import { publishNews } from "./engine/queue-message";
import { newsRepo } from "./news.repo";

/**
 * An in-app notification raised by the platform itself (no rule): a paused firmware rollout
 * (ADR 021). Written, then pushed to the scope's sockets; `domainId` null is the superusers'.
 */
export async function postSystemNews(
  ctx: AppContext,
  domainId: string | null,
  item: { level: NewsItem["level"]; title: string; text: string },
): Promise<void> {
  const id = randomUUID();
  const at = ctx.now();
  await newsRepo(ctx.db).insertNews(domainId, { id, ruleId: null, ...item, at });
  await publishNews(ctx, domainId, [{ _id: id, ...item, rule: null, create_time: at.getTime() }]);
}
