// On a phone (390 px) the actions list and the audit log fit the screen: no sideways scroll (issue
// 27). What does not fit goes under the row's first cell (progress and time; author and time), and
// the audit log says in words what was done (issue 27 item 14).
import { expect, test } from "@playwright/test";
import { JUNIOR } from "../support/accounts";
import { sidewaysOverflow } from "../support/looks";
import { apiToken, signInFleetAdmin, useEnglish } from "../support/session";

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

test("the actions list and the audit log fit a phone, and the log speaks words", async ({
  page,
  context,
  baseURL,
  request,
}) => {
  await useEnglish(context, baseURL as string);
  const login = await request.post("/api/login/", {
    data: { username: JUNIOR.username, password: JUNIOR.password },
  });
  const junior = (await login.json()).token as string;
  const created = await request.post("/api/command/new", {
    headers: { token: junior },
    data: { type: "reboot", targets: { all: true } },
  });
  expect(created.status()).toBe(200);
  const admin = await apiToken(request);
  const declined = await request.post(`/api/command/${(await created.json())._id}/decline`, {
    headers: { token: admin },
    data: {},
  });
  expect(declined.status()).toBe(200);

  await signInFleetAdmin(page);
  await page.goto("/commands");
  await expect(page.getByTestId("command-row").first()).toBeVisible();
  await expect.poll(() => sidewaysOverflow(page, "commands-table")).toBe(0);

  await page.goto("/logs");
  const table = page.getByTestId("logs-table");
  await expect(table).toBeVisible();
  await expect(table.getByText(/^Declined action “reboot”$/).first()).toBeVisible();
  await expect(table).not.toContainText("POST_command");
  await expect.poll(() => sidewaysOverflow(page, "logs-table")).toBe(0);
});
