// Licences in a real browser against the vendor's real licence service on loopback (started by
// support/start-server.ts with the development keys): root adds a key and watches it turn Ready,
// a banned and an expired key show their statuses and messages, the digital print opens, and every
// licence screen is saved in four looks.
import { expect, test } from "@playwright/test";
import { DEMO_LICENSE_KEYS, signDemoLicense } from "../support/license-service";
import { LOOKS } from "../support/looks";
import { signInRoot, useEnglish } from "../support/session";
import { shot } from "../support/shots";

const rowOf = (page: import("@playwright/test").Page, key: string) =>
  page.getByTestId("license-row").filter({ hasText: `${key.slice(0, 8)}…${key.slice(-4)}`.toUpperCase() });

test.describe
  .serial("licences", () => {
    test("root adds a key on /license/new and sees it activated by the licence service", async ({
      page,
      context,
      baseURL,
    }) => {
      await useEnglish(context, baseURL as string);
      await signInRoot(page);
      await page.getByTestId("hub-licenses").click();
      await expect(page).toHaveURL(/\/licenses$/);
      await expect(page.getByText(/No licences yet/)).toBeVisible();
      await expect(page.getByTestId("license-usage")).toContainText(
        "No licence limits this installation yet",
      );

      await page.getByRole("button", { name: "Add" }).click();
      await expect(page).toHaveURL(/\/license\/new$/);
      await page.getByTestId("license-key").fill("12345");
      await page.getByTestId("license-add").click();
      await expect(page.getByText(/exactly 64 hexadecimal characters/)).toBeVisible();

      await page.getByTestId("license-key").fill(DEMO_LICENSE_KEYS.active.toUpperCase());
      await page.getByTestId("license-add").click();
      await expect(page).toHaveURL(/\/licenses$/);
      const active = rowOf(page, DEMO_LICENSE_KEYS.active);
      await expect(active.getByTestId("license-status")).toHaveText("Ready", { timeout: 15_000 });
      await expect(active).toContainText("100");
      await expect(page.getByTestId("license-usage")).toContainText("of 100 licensed");

      // The same key again is refused by its code, beside the field.
      await page.goto("/license/new");
      await page.getByTestId("license-key").fill(DEMO_LICENSE_KEYS.active);
      await page.getByTestId("license-add").click();
      await expect(page.getByTestId("form-error")).toHaveText("This licence key already exists");
    });

    test("a banned and an expired key show their statuses with a critical message; a licence file activates offline", async ({
      page,
      context,
      baseURL,
    }) => {
      await useEnglish(context, baseURL as string);
      await signInRoot(page);
      for (const [key, status, message] of [
        [DEMO_LICENSE_KEYS.banned, "Banned", "The vendor has banned this key"],
        [DEMO_LICENSE_KEYS.expired, "Expired", "The licence has expired"],
      ] as const) {
        await page.goto("/license/new");
        await page.getByTestId("license-key").fill(key);
        await page.getByTestId("license-add").click();
        await expect(page).toHaveURL(/\/licenses$/);
        await expect(rowOf(page, key).getByTestId("license-status")).toHaveText(status, { timeout: 15_000 });
        await expect(page.getByTestId("info-message")).toContainText(message);
      }
      // Refresh re-asks the service for every licence; the active one stays Ready.
      await page.getByTestId("licenses-refresh").click();
      await expect(rowOf(page, DEMO_LICENSE_KEYS.active).getByTestId("license-status")).toHaveText("Ready");

      await page.getByTestId("license-fingerprint").click();
      await expect(page.getByTestId("license-fingerprint-value")).toHaveText(/^[0-9a-f]{64}$/);
      const fingerprint = (await page.getByTestId("license-fingerprint-value").textContent()) as string;
      await page.getByRole("button", { name: "Close" }).click();

      // Offline activation: a file the vendor signed for this digital print is taken; a forged one is not.
      // As the vendor's `issue` command makes it: the demo key file's 'b' key, 20 routers until 2036.
      const document = signDemoLicense({
        v: 1,
        key: DEMO_LICENSE_KEYS.offline,
        fingerprint,
        status: "active",
        validFrom: "2026-01-01T00:00:00.000Z",
        validUntil: "2036-01-02T00:00:00.000Z",
        deviceCount: 20,
        issuedAt: new Date().toISOString(),
      });
      const forged = { ...document, payload: { ...document.payload, deviceCount: 2000 } };
      const input = page.getByTestId("license-upload-input");
      const file = (name: string, body: unknown) => ({
        name,
        mimeType: "application/json",
        buffer: Buffer.from(JSON.stringify(body)),
      });
      await input.setInputFiles(file("forged.json", forged));
      await expect(page.getByTestId("info-message")).toContainText("forged.json was not accepted");
      await input.setInputFiles(file("licence.json", document));
      await expect(rowOf(page, DEMO_LICENSE_KEYS.offline).getByTestId("license-status")).toHaveText("Ready");
      await expect(page.getByTestId("license-usage")).toContainText("of 120 licensed");
    });

    for (const look of LOOKS) {
      test(`licence screens ${look.name}`, async ({ page, context, baseURL }) => {
        await page.setViewportSize({ width: look.width, height: look.height });
        await context.addInitScript((theme) => localStorage.setItem("cellfleet.theme", theme), look.theme);
        // Signed in in English (the helper finds the form by its English labels), then the look's language.
        await useEnglish(context, baseURL as string);
        await signInRoot(page);
        await context.addCookies([{ name: "locale", value: look.locale, url: baseURL as string }]);
        await page.goto("/licenses");
        await expect(page.getByTestId("license-row")).toHaveCount(4);
        await shot(page, `licenses-${look.name}-list`);
        await page.getByTestId("license-fingerprint").click();
        await expect(page.getByTestId("license-fingerprint-value")).toBeVisible();
        // The dialog fades in: wait until it is opaque.
        await expect(page.locator(".MuiDialog-container")).toHaveCSS("opacity", "1");
        await shot(page, `licenses-${look.name}-fingerprint`);
        await page.goto("/license/new");
        await page.getByTestId("license-key").fill("0123");
        await page.getByTestId("license-key").blur();
        await shot(page, `licenses-${look.name}-new`);
      });
    }
  });
