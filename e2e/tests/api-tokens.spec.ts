// Personal API tokens on the profile page (issue 30, ADR 040): the fleet's admin makes a read-only
// token, sees its secret once, and the secret works as `Authorization: Bearer` on the API but not as
// a console session (the Token header); the list then shows when and from where it was used, and a
// revoked token stops at once. Saved in the four looks for a person to look at.
import { expect, test } from "@playwright/test";
import { LOOKS } from "../support/looks";
import { signInFleetAdmin, useEnglish } from "../support/session";
import { shot } from "../support/shots";

for (const variant of LOOKS) {
  test(`an API token made on the profile page, shown once, used and revoked, ${variant.name}`, async ({
    page,
    context,
    baseURL,
  }) => {
    await page.setViewportSize({ width: variant.width, height: variant.height });
    await context.addInitScript((theme) => localStorage.setItem("cellfleet.theme", theme), variant.theme);
    await useEnglish(context, baseURL as string);
    await signInFleetAdmin(page);
    await context.addCookies([{ name: "locale", value: variant.locale, url: baseURL as string }]);
    await page.goto("/profile");
    const section = page.getByTestId("api-tokens");
    await expect(section).toBeVisible();

    const name = `inventory ${variant.name}`;
    await section
      .getByRole("button", { name: variant.locale === "ru" ? "Новый токен" : "New token" })
      .click();
    await page.getByTestId("api-token-name").fill(name);
    // Read only is chosen at first: nothing that saves is ticked. Actions read as words, not codes.
    const ru = variant.locale === "ru";
    await expect(page.getByRole("checkbox", { name: ru ? "Видеть роутеры" : "See routers" })).toBeChecked();
    await expect(
      page.getByRole("checkbox", { name: ru ? "Изменять роутеры" : "Edit routers" }),
    ).not.toBeChecked();
    await shot(page, `api-tokens-new-${variant.name}`);
    await page.getByTestId("api-token-create").click();

    const secret = page.getByTestId("api-token-secret");
    await expect(secret).toHaveText(/^cft_[A-Za-z0-9_-]{43}$/);
    const token = (await secret.textContent()) as string;
    await shot(page, `api-tokens-created-${variant.name}`);
    await page.getByRole("button", { name: variant.locale === "ru" ? "Готово" : "Done" }).click();

    // The secret is an API key, not a console session.
    const asBearer = await page.request.post("/api/devices", {
      headers: { authorization: `Bearer ${token}` },
      data: {},
    });
    expect(asBearer.status()).toBe(200);
    const asSession = await page.request.post("/api/devices", { headers: { token }, data: {} });
    expect(asSession.status()).toBe(401);
    const create = await page.request.post("/api/devices/new", {
      headers: { authorization: `Bearer ${token}` },
      data: { ident: "NEVERMADE1" },
    });
    expect(create.status()).toBe(403);

    await page.reload();
    const item = section.getByTestId("api-token").filter({ hasText: name });
    await expect(item).toContainText("127.0.0.1");
    await expect(item).toContainText(variant.locale === "ru" ? "Видеть роутеры" : "See routers");
    await shot(page, `api-tokens-${variant.name}`);

    await item.getByRole("button", { name: variant.locale === "ru" ? "Отозвать" : "Revoke" }).click();
    await page
      .getByRole("dialog")
      .getByRole("button", { name: variant.locale === "ru" ? "Отозвать" : "Revoke" })
      .click();
    await expect(item).toContainText(variant.locale === "ru" ? "Отозван" : "Revoked");
    const revoked = await page.request.post("/api/devices", {
      headers: { authorization: `Bearer ${token}` },
      data: {},
    });
    expect(revoked.status()).toBe(401);
  });
}
