// What waits for an approver (issue 27): a junior's reboot shows in the assistant's bell and above the
// actions list as "1 action waits for you"; the list names the command's targets and finds it by a
// search; the junior, whose own command it is, is not counted. Then the bell and the list in the
// four looks, saved for a person to look at; the assistant declines the reboot at the end.
import { type APIRequestContext, expect, test } from "@playwright/test";
import { ASSISTANT, JUNIOR } from "../support/accounts";
import { LOOKS } from "../support/looks";
import { apiToken, routerIdOf, signInAs, useEnglish } from "../support/session";
import { shot } from "../support/shots";

test.describe.configure({ mode: "serial" });

const TAG = "waitrack";
const TAGGED = "SIM000003";

async function waitingCount(request: APIRequestContext, token: string): Promise<number> {
  const answer = await request.post("/api/commands/waiting", { data: { token } });
  expect(answer.status(), await answer.text()).toBe(200);
  return (await answer.json()).count as number;
}

let commandId = "";

test("a junior's waiting reboot reaches the assistant's bell and the actions list, not the junior's", async ({
  page,
  context,
  baseURL,
  request,
}) => {
  test.setTimeout(120_000);
  await useEnglish(context, baseURL as string);
  const admin = await apiToken(request);
  const deviceId = await routerIdOf(request, admin, TAGGED);
  const edit = await request.post(`/api/device/${deviceId}/edit`, { data: { token: admin, tags: [TAG] } });
  expect(edit.status(), await edit.text()).toBe(200);

  const junior = await apiToken(request, JUNIOR);
  const assistant = await apiToken(request, ASSISTANT);
  const [assistantBefore, juniorBefore] = [
    await waitingCount(request, assistant),
    await waitingCount(request, junior),
  ];
  const created = await request.post("/api/command/new", {
    data: { token: junior, type: "reboot", targets: { tags: [TAG] } },
  });
  expect(created.status(), await created.text()).toBe(200);
  commandId = (await created.json())._id as string;
  expect(await waitingCount(request, assistant)).toBe(assistantBefore + 1);
  expect(await waitingCount(request, junior)).toBe(juniorBefore);

  // The bell counts the news the assistant has not seen too (other specs post some: a rollout offered).
  const news = await request.post("/api/notifications/news", { data: { token: assistant } });
  expect(news.status(), await news.text()).toBe(200);
  const unseen = (await news.json()).unseen as number;
  await signInAs(page, ASSISTANT);
  const bell = page.getByTestId("news-bell");
  await expect(bell).toHaveAccessibleName(new RegExp(`Notifications, ${unseen + assistantBefore + 1} new`));
  await bell.click();
  await expect(page.getByTestId("news-waiting")).toContainText(
    assistantBefore === 0 ? "1 action waits for you" : `${assistantBefore + 1} actions wait for you`,
  );
  await page.getByTestId("news-waiting").getByRole("link", { name: "Actions" }).click();
  await expect(page).toHaveURL(/\/commands$/);
  await expect(page.getByTestId("commands-waiting")).toBeVisible();
  await page.getByTestId("commands-waiting").getByRole("button", { name: "Show them" }).click();
  const row = page
    .getByTestId("command-row")
    .filter({ has: page.locator(`a[href="/command/${commandId}"]`) });
  await expect(row).toBeVisible();
  await expect(row.getByTestId("command-targets")).toHaveText(`Tags: ${TAG}`);
  await page.getByRole("combobox", { name: "Search" }).fill(`${TAG} junior`);
  await expect(row).toBeVisible();
  await page.getByRole("combobox", { name: "Search" }).fill(`${TAG} nobody-such`);
  await expect(row).toHaveCount(0);
  await page.getByRole("combobox", { name: "Search" }).fill("");
});

for (const variant of LOOKS) {
  test(`the waiting approvals, ${variant.name}`, async ({ page, context, baseURL }) => {
    test.setTimeout(60_000);
    await page.setViewportSize({ width: variant.width, height: variant.height });
    await context.addInitScript((theme) => localStorage.setItem("cellfleet.theme", theme), variant.theme);
    await useEnglish(context, baseURL as string);
    await signInAs(page, ASSISTANT);
    await context.addCookies([{ name: "locale", value: variant.locale, url: baseURL as string }]);
    await page.goto("/commands");
    await expect(page.getByTestId("commands-waiting")).toBeVisible();
    await expect(page.getByTestId("command-row").first()).toBeVisible();
    await shot(page, `waiting-approvals-${variant.name}-list`);
    await page.getByTestId("news-bell").click();
    await expect(page.getByTestId("news-waiting")).toBeVisible();
    // The popover fades in: the picture is taken once it has.
    await expect(page.locator(".MuiPopover-paper")).toHaveCSS("opacity", "1");
    await shot(page, `waiting-approvals-${variant.name}-bell`);
  });
}

test("the assistant declines it, and nothing waits for the assistant any longer", async ({ request }) => {
  const assistant = await apiToken(request, ASSISTANT);
  const before = await waitingCount(request, assistant);
  const declined = await request.post(`/api/command/${commandId}/decline`, {
    data: { token: assistant, reason: "e2e" },
  });
  expect(declined.status(), await declined.text()).toBe(200);
  expect(await waitingCount(request, assistant)).toBe(before - 1);
});
