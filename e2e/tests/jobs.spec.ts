// The jobs screen in a real browser: root finds a mail that died (seeded by support/dead-jobs.ts,
// since dying takes minutes of backoff), retries it, and the dispatcher sends it for real.
import { expect, test } from "@playwright/test";
import { RETRIED_MAIL_TO, STILL_DEAD_MAIL_TO } from "../support/dead-jobs";
import { readMails } from "../support/mailbox";
import { signInRoot, useEnglish } from "../support/session";
import { shot } from "../support/shots";

test.beforeEach(async ({ context, baseURL }) => {
  await useEnglish(context, baseURL as string);
});

test("root sees a dead mail on /jobs, retries it, and the mail is sent", async ({ page }) => {
  await signInRoot(page);
  await page.getByTestId("hub-jobs").click();
  await expect(page).toHaveURL(/\/jobs$/);

  // The screen opens on the jobs that wait for a person: failed and dead.
  const retried = page.getByTestId("job-row").filter({ hasText: RETRIED_MAIL_TO });
  await expect(retried).toBeVisible();
  await expect(retried.getByText("Dead", { exact: true })).toBeVisible();
  await expect(retried.getByText("8 of 8")).toBeVisible();
  await expect(retried.getByText("System", { exact: true })).toBeVisible();
  await expect(page.getByTestId("job-row").filter({ hasText: STILL_DEAD_MAIL_TO })).toBeVisible();
  await shot(page, "jobs-dead");

  await retried.getByTestId("job-retry").click();
  await expect(page.getByTestId("info-message")).toContainText("Success");
  // The list is read again: the retried job no longer waits for a person, the other one still does.
  await expect(retried).toHaveCount(0);
  await expect(page.getByTestId("job-row").filter({ hasText: STILL_DEAD_MAIL_TO })).toBeVisible();

  // The dispatcher runs it against the loopback mailbox, and the mail arrives.
  await expect
    .poll(() => readMails().filter((mail) => mail.to.includes(RETRIED_MAIL_TO)).length, { timeout: 30_000 })
    .toBe(1);

  // Among the done mails it now shows Done, with a fresh count of attempts. The kind filter keeps it
  // in view: the newest jobs come first, and the other tests' jobs were created after this seeded one.
  await page.getByTestId("jobs-state-filter").locator("..").click();
  await page.getByRole("option", { name: "Done", exact: true }).click();
  await page.getByLabel("Kind").fill("mail.send");
  await page.getByLabel("Kind").press("Enter");
  const done = page.getByTestId("job-row").filter({ hasText: RETRIED_MAIL_TO });
  await expect(done.getByText("Done", { exact: true })).toBeVisible();
  await expect(done.getByText("1 of 8")).toBeVisible();
});
