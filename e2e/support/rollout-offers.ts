import { type APIRequestContext, expect } from "@playwright/test";
import { apiToken } from "./session";

/**
 * The demo domain's admin accepts, through the API, the rollout of `version` root offered it (ADR
 * 031): a spec about the rollout itself, not the offer, lets its routers be sent. Waits for the offer.
 */
export async function acceptOfferedRollout(request: APIRequestContext, version: string): Promise<void> {
  const token = await apiToken(request);
  let id = "";
  await expect(async () => {
    const answer = await request.post("/api/rollout-offers", { headers: { token }, data: {} });
    const items = (await answer.json()).items as Array<{ _id: string; version: string; state: string }>;
    id = items.find((offer) => offer.version === version && offer.state === "offered")?._id ?? "";
    expect(id, `an offer of ${version}`).not.toBe("");
  }).toPass({ timeout: 20_000 });
  const accepted = await request.post(`/api/rollout/${id}/accept`, {
    headers: { token },
    data: { window: null },
  });
  expect(accepted.status(), await accepted.text()).toBe(200);
}
