// The monthly uptime mail (issue 31, ADR 044) where schedule rules are made: an admin adds a rule
// mailing last month's PDF to two addresses on the 1st, meets the dialog's message for a bad address
// first, and sees the rule with its next run in the table. The screens in the four looks.
import { expect, test } from "@playwright/test";
import { LOOKS } from "../support/looks";
import { signInFleetAdmin, useEnglish } from "../support/session";
import { shot } from "../support/shots";

for (const variant of LOOKS) {
  test(`an admin adds a monthly uptime mail, ${variant.name}`, async ({ page, context, baseURL }) => {
    await page.setViewportSize({ width: variant.width, height: variant.height });
    await context.addInitScript((theme) => localStorage.setItem("cellfleet.theme", theme), variant.theme);
    await useEnglish(context, baseURL as string);
    await signInFleetAdmin(page);
    await context.addCookies([{ name: "locale", value: variant.locale, url: baseURL as string }]);
    const ru = variant.locale === "ru";

    await page.goto("/settings");
    const card = page.getByTestId("uptime-mail-rules");
    await expect(card).toContainText(
      ru ? "Ежемесячный отчёт о доступности по почте" : "Monthly uptime report by mail",
    );
    await card.getByTestId("uptime-mail-add").click();
    const dialog = page.getByTestId("uptime-mail-dialog");
    const name = `Customer ${variant.name}`;
    await dialog.getByTestId("uptime-mail-name").fill(name);
    await dialog.getByTestId("uptime-mail-recipients").fill("ops@customer.example, not-an-address");
    await dialog.getByTestId("uptime-mail-save").click();
    await expect(dialog).toContainText(
      ru
        ? "Введите один или несколько верных адресов через запятую"
        : "Enter one or more valid e-mail addresses",
    );
    await dialog.getByTestId("uptime-mail-recipients").fill("ops@customer.example, boss@customer.example");
    await shot(page, `uptime-mail-${variant.name}-dialog`);
    await dialog.getByTestId("uptime-mail-save").click();
    await expect(dialog).toBeHidden();

    const row = card.getByRole("row").filter({ hasText: name });
    await expect(row).toContainText("ops@customer.example");
    await expect(row).toContainText("boss@customer.example");
    await row.scrollIntoViewIfNeeded();
    await shot(page, `uptime-mail-${variant.name}-card`);
  });
}
