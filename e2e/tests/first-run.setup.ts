// The setup project (playwright.config.ts): the installation's first run, which every spec depends
// on and none repeats. Root signs in with the factory password, is held on /profile until it changes
// it, and lands on /accounting; root's signed-in state is saved for the specs that start as root.
import { expect, test as setup } from "@playwright/test";
import { ROOT_NEW_PASSWORD, ROOT_PASSWORD } from "../support/accounts";
import { ROOT_STATE, signIn, useEnglish } from "../support/session";
import { shot } from "../support/shots";

setup(
  "root changes the factory password on first sign-in, and its session is saved",
  async ({ page, context, baseURL }) => {
    await useEnglish(context, baseURL as string);
    await signIn(page, "root", ROOT_PASSWORD);
    await expect(page).toHaveURL(/\/profile$/);
    await shot(page, "01-root-factory-profile");

    // Every other route is locked while the factory password is unchanged.
    await page.goto("/accounting");
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByTestId("info-message")).toContainText(/access denied/i);

    await page.getByLabel(/current password/i).fill(ROOT_PASSWORD);
    await page.getByLabel(/^new password/i).fill(ROOT_NEW_PASSWORD);
    await page.getByLabel(/confirm/i).fill(`${ROOT_NEW_PASSWORD}x`);
    await page.getByRole("button", { name: /change password/i }).click();
    await expect(page.getByText("Passwords do not match!")).toBeVisible();
    await shot(page, "02-root-passwords-do-not-match");

    await page.getByLabel(/confirm/i).fill(ROOT_NEW_PASSWORD);
    await page.getByRole("button", { name: /change password/i }).click();
    await expect(page).toHaveURL(/\/accounting$/, { timeout: 15_000 });
    await expect(page.getByTestId("nav-drawer")).toContainText(/accounting/i);
    await expect(page.getByTestId("nav-drawer")).not.toContainText(/dashboard/i);
    await shot(page, "03-root-accounting");

    // The new password works after signing out; that session is the one the specs reuse.
    await page.goto("/logout");
    await expect(page).toHaveURL(/\/login$/);
    await signIn(page, "root", ROOT_NEW_PASSWORD);
    await expect(page).toHaveURL(/\/accounting$/);
    await context.storageState({ path: ROOT_STATE });
  },
);
