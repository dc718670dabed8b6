// Accounting and security in a real browser (issue 4). Root signs in with the password the setup
// project (first-run.setup.ts) set.
import { expect, test } from "@playwright/test";
import { readMails } from "../support/mailbox";
import { changeFactoryPassword, signIn, signInRoot, useEnglish } from "../support/session";
import { shot } from "../support/shots";

test.describe.configure({ mode: "serial" });

const stamp = Date.now().toString(36);
const ADMIN = { username: `acme-admin-${stamp}`, first: "Admin-Pass-1", password: "Admin-Pass-2" };
const HELPER = { username: `acme-helper-${stamp}`, first: "Helper-Pass-1", password: "Helper-Pass-2" };
const OPERATOR = { username: `acme-oper-${stamp}`, password: "Oper-Pass-1" };
const COMPANY_EMAIL = `boss-${stamp}@example.com`;

test.beforeEach(async ({ context, baseURL }) => {
  await useEnglish(context, baseURL as string);
});

/** Waits for a mail to an address and answers its text. */
async function mailTo(address: string, index = 0): Promise<string> {
  let text = "";
  await expect
    .poll(
      () => {
        const mails = readMails().filter((mail) => mail.to.includes(address));
        text = mails[index]?.text ?? "";
        return text.length > 0;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return text;
}

test("a superuser creates a domain and its admin", async ({ page }) => {
  await signInRoot(page);
  await expect(page.getByTestId("hub-domains")).toBeVisible();
  await expect(page.getByTestId("hub-logs")).toBeVisible();
  await shot(page, "accounting-01-root-hub");

  await page.getByTestId("hub-domains").click();
  await expect(page).toHaveURL(/\/domains$/);
  await page.getByRole("button", { name: /^add$/i }).click();
  await expect(page).toHaveURL(/\/domains\/new$/);

  await page.getByLabel(/^name/i).fill(`acme-${stamp}`);
  await page.getByLabel(/full name/i).fill("Acme Routers Ltd");
  await page.getByLabel(/^tin/i).fill("12345");
  await page.getByLabel(/e-mail/i).fill("not-an-email");
  await page.getByRole("button", { name: /create domain/i }).click();
  await expect(page.getByText("TIN must contain 9 or more digits")).toBeVisible();
  await shot(page, "accounting-02-domain-validation");

  await page.getByLabel(/^tin/i).fill("123456789");
  await page.getByLabel(/e-mail/i).fill("office@acme.example");
  await page.getByLabel(/manager/i).fill("Maria Manager");
  await page.getByRole("button", { name: /create domain/i }).click();
  await expect(page).toHaveURL(/\/domain\/[^/]+$/, { timeout: 15_000 });
  await expect(page.getByTestId("page-title")).toHaveText(`acme-${stamp}`);
  const domainUrl = page.url();

  await page.getByRole("link", { name: /add administrator/i }).click();
  await expect(page).toHaveURL(/\/admins\/new$/);
  await page.getByLabel(/^login/i).fill(ADMIN.username);
  await page.getByLabel(/full name/i).fill("Anna Admin");
  await page.getByLabel(/^password/i).fill(ADMIN.first);
  await page.getByLabel(/confirm/i).fill(ADMIN.first);
  await page.getByRole("button", { name: /^save$/i }).click();
  await expect(page).toHaveURL(/\/admins\/(?!new)[^/]+$/, { timeout: 15_000 });
  await shot(page, "accounting-03-domain-admin");

  await page.goto(domainUrl);
  await expect(page.getByTestId("domain-admins")).toContainText(ADMIN.username);
  await shot(page, "accounting-04-domain-page");

  await page.goto("/domains");
  await expect(page.getByTestId("domains-table")).toContainText(`acme-${stamp}`);
  await shot(page, "accounting-05-domains");
});

test("the admin creates a helper and an operator", async ({ page }) => {
  await signIn(page, ADMIN.username, ADMIN.first);
  await changeFactoryPassword(page, ADMIN.first, ADMIN.password);
  await page.goto("/accounting");
  await expect(page.getByTestId("hub-users")).toBeVisible();
  await expect(page.getByTestId("hub-domains")).toHaveCount(0);

  await page.getByTestId("hub-users").click();
  await expect(page).toHaveURL(/\/users$/);
  await page.getByRole("button", { name: /^add$/i }).click();
  await expect(page).toHaveURL(/\/user\/new$/);

  await page.getByLabel(/^login/i).fill(HELPER.username);
  await page.getByLabel(/full name/i).fill("Harry Helper");
  await page.getByLabel(/^role/i).click();
  await page.getByRole("option", { name: "Assistant" }).click();
  await page.getByLabel(/^password/i).fill("short");
  await page.getByLabel(/confirm/i).fill("short");
  await page.getByRole("button", { name: /^save$/i }).click();
  await expect(
    page
      .getByText(/password/i)
      .locator("visible=true")
      .first(),
  ).toBeVisible();
  await shot(page, "accounting-06-user-password-rule");
  await page.getByLabel(/^password/i).fill(HELPER.first);
  await page.getByLabel(/confirm/i).fill(HELPER.first);
  await page.getByRole("button", { name: /^save$/i }).click();
  await expect(page).toHaveURL(/\/user\/(?!new)[^/]+$/, { timeout: 15_000 });

  await page.goto("/user/new");
  await page.getByLabel(/^login/i).fill(OPERATOR.username);
  await page.getByLabel(/full name/i).fill("Oscar Operator");
  await page.getByLabel(/^role/i).click();
  await page.getByRole("option", { name: "Operator" }).click();
  await page.getByLabel(/^password/i).fill(OPERATOR.password);
  await page.getByLabel(/confirm/i).fill(OPERATOR.password);
  await page.getByRole("button", { name: /^save$/i }).click();
  await expect(page).toHaveURL(/\/user\/(?!new)[^/]+$/, { timeout: 15_000 });

  await page.goto("/users");
  const table = page.getByTestId("users-table");
  await expect(table).toContainText(HELPER.username);
  await expect(table).toContainText(OPERATOR.username);
  await shot(page, "accounting-07-users");
});

test("the helper can edit the operator but not delete it", async ({ page }) => {
  await signIn(page, HELPER.username, HELPER.first);
  await changeFactoryPassword(page, HELPER.first, HELPER.password);
  await page.goto("/users");
  await expect(page.getByRole("button", { name: /^add$/i })).toHaveCount(0);
  await page.getByTestId("users-table").getByText(OPERATOR.username).click();
  await expect(page).toHaveURL(/\/user\/[^/]+$/);
  await expect(page.getByLabel(/full name/i)).toHaveValue("Oscar Operator");
  await expect(page.getByRole("button", { name: /delete user/i })).toHaveCount(0);
  await page.getByLabel(/full name/i).fill("Oscar the Operator");
  await page.getByRole("button", { name: /^save$/i }).click();
  await expect(page.getByTestId("info-message")).toContainText(/information updated/i);
  await shot(page, "accounting-08-helper-edits-operator");

  // An administrator's record is read-only to a helper.
  await page.goto("/users");
  await page.getByTestId("users-table").getByText(ADMIN.username).click();
  await expect(page.getByText(/may look at this record but not change it/i)).toBeVisible();
  await expect(page.getByRole("button", { name: /^save$/i })).toHaveCount(0);
});

test("registration from /registry to the first sign-in", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("link", { name: /sign up/i }).click();
  await expect(page).toHaveURL(/\/registry$/);
  await page.getByRole("button", { name: /^register$/i }).click();
  await expect(page.getByText(/consent/i).first()).toBeVisible();
  await shot(page, "accounting-09-registry-validation");

  await page.getByLabel(/company name/i).fill(`Registered ${stamp}`);
  await page.getByLabel(/^tin/i).fill("987654321");
  await page.getByLabel(/full name/i).fill("Boris Boss");
  await page.getByLabel(/corporate e-mail/i).fill(COMPANY_EMAIL);
  await page.getByLabel(/phone/i).fill("+7 (912) 345-67-89");
  await page.getByLabel(/consent/i).check();
  await page.getByRole("button", { name: /send key/i }).click();
  await expect(page.getByTestId("registry-key-sent")).toBeVisible();
  const keyMail = await mailTo(COMPANY_EMAIL);
  const key = /key[^:]*:\s*(\S+)/i.exec(keyMail)?.[1] ?? "";
  expect(key).not.toBe("");
  await page.getByLabel(/key from the e-mail/i).fill(key);
  await page.getByRole("button", { name: /^register$/i }).click();
  await expect(page.getByTestId("registry-done")).toBeVisible({ timeout: 15_000 });
  await shot(page, "accounting-10-registry-done");

  const accountMail = await mailTo(COMPANY_EMAIL, 1);
  const username = /Username:\s*(\S+)/.exec(accountMail)?.[1] ?? "";
  const password = /Password:\s*(\S+)/.exec(accountMail)?.[1] ?? "";
  expect(username).not.toBe("");
  await page.getByRole("link", { name: /back to sign in/i }).click();
  await signIn(page, username, password);
  await changeFactoryPassword(page, password, "Boss-Pass-12");
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("user-caption")).toContainText("Boris Boss");
});

test("forgot password: the e-mailed code sets a new password", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("button", { name: /forgot password/i }).click();
  await page.getByLabel(/login or e-mail/i).fill(COMPANY_EMAIL);
  await page.getByRole("button", { name: /^send$/i }).click();
  await expect(page.getByTestId("reset-sent")).toBeVisible();
  await shot(page, "accounting-11-forgot-password");
  const mail = await mailTo(COMPANY_EMAIL, 2);
  const link = /Link:\s*(\S+)/.exec(mail)?.[1] ?? "";
  expect(link).toContain("/login?reset=");
  await page.goto(link);
  await page.getByLabel(/^new password/i).fill("Boss-Pass-34");
  await page.getByLabel(/confirm/i).fill("Boss-Pass-34");
  await page.getByRole("button", { name: /set the password/i }).click();
  await expect(page.getByTestId("reset-done")).toBeVisible({ timeout: 15_000 });
  await page.getByRole("button", { name: /back to sign in/i }).click();
  await page.getByLabel(/^password/i).fill("Boss-Pass-34");
  await page.getByRole("button", { name: /^sign in$/i }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("the superuser creates a policy and uploads its forbidden phrases", async ({ page }) => {
  await signInRoot(page);
  await page.goto("/policies");
  await page.getByRole("button", { name: /^add$/i }).click();
  await expect(page).toHaveURL(/\/policy\/new$/);
  await page.getByLabel(/^name/i).fill(`Bank ${stamp}`);
  await page.getByLabel(/^minimum length$/i).fill("300");
  await page.getByLabel(/^name/i).click();
  await expect(page.getByText("A whole number from 1 to 255").first()).toBeVisible();
  await page.getByLabel(/^minimum length$/i).fill("10");
  await page.getByRole("button", { name: /^save$/i }).click();
  await expect(page).toHaveURL(/\/policy\/(?!new)[^/]+$/, { timeout: 15_000 });
  // The stored policy's page (titled by its name) replaces the new-policy form.
  await expect(page.getByTestId("page-title")).toHaveText(`Bank ${stamp}`);

  await page
    .getByTestId("dictionary-phrases")
    .locator("input[type=file]")
    .setInputFiles({
      name: "phrases.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("qwerty\npassword\n\nqwerty\n"),
    });
  await expect(page.getByTestId("dictionary-phrases")).toContainText("2 entries");
  await page
    .getByTestId("dictionary-sequences")
    .locator("input[type=file]")
    .setInputFiles({ name: "list.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF") });
  await expect(page.getByTestId("dictionary-sequences").getByRole("alert")).toBeVisible();
  await shot(page, "accounting-13-policy");

  await page.goto("/policies");
  await expect(page.getByTestId("policies-table")).toContainText(`Bank ${stamp}`);
});

test("the superuser reads the audit log and filters it by a tag", async ({ page }) => {
  await signInRoot(page);
  await page.goto("/logs");
  const table = page.getByTestId("logs-table");
  await expect(table).toBeVisible({ timeout: 15_000 });
  await table.getByText("Success", { exact: true }).first().click();
  await expect(page.getByTestId("active-filters")).toContainText("Status: Success");
  await table
    .getByRole("button", { name: /show details/i })
    .first()
    .click();
  await expect(page.getByTestId("log-info").first()).toBeVisible();
  await expect(page.getByTestId("log-info").first()).not.toContainText(ADMIN.first);
  await shot(page, "accounting-12-logs");

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: /download/i }).click();
  expect((await download).suggestedFilename()).toBe("web_actions.csv");
});
