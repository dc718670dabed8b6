// Routers from a file with a dry run (issue 31, ADR 042): from the device list the fleet's admin
// opens the import, chooses a CSV, sees per row what would be created, changed or refused and why,
// applies it and downloads the generated keys once. Saved in the four looks for a person to look at.
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { LOOKS, sidewaysOverflow } from "../support/looks";
import { apiToken, signInFleetAdmin, useEnglish } from "../support/session";
import { shot } from "../support/shots";

for (const variant of LOOKS) {
  test(`routers imported from a CSV with a dry run and their keys downloaded, ${variant.name}`, async ({
    page,
    context,
    baseURL,
    request,
  }) => {
    await page.setViewportSize({ width: variant.width, height: variant.height });
    await context.addInitScript((theme) => localStorage.setItem("cellfleet.theme", theme), variant.theme);
    await useEnglish(context, baseURL as string);
    await signInFleetAdmin(page);
    await context.addCookies([{ name: "locale", value: variant.locale, url: baseURL as string }]);
    const isRu = variant.locale === "ru";

    await page.goto("/dashboard");
    await page
      .getByRole("button", { name: isRu ? "Импорт роутеров из файла" : "Import routers from a file" })
      .click();
    await expect(page).toHaveURL(/\/devices\/new\/import$/);

    const run = `${Date.now().toString(36)}${variant.name.length}${variant.width}`.toUpperCase();
    const [gate, pump] = [`IMPGATE${run}`, `IMPPUMP${run}`];
    const csv = [
      "ident,key,tags,description,position",
      `${gate},generate,imported;east,"Gate 1, by the road","55.7512,37.6184"`,
      `${pump},generate,imported,Pump station,`,
      `${pump},,,Repeated,`,
      "bad-ident,,,,",
      `IMPKEY${run},12345,,,`,
    ].join("\r\n");
    await page.getByTestId("import-file").setInputFiles({
      name: "routers.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(csv),
    });
    const counts = page.getByTestId("import-counts");
    await expect(counts).toContainText(isRu ? "Будет создано: 2" : "Will be created: 2");
    await expect(counts).toContainText(isRu ? "Отклонено: 3" : "Refused: 3");
    const rows = page.getByTestId("import-rows");
    await expect(rows).toContainText(isRu ? "повторяется в файле" : "repeated in the file");
    await expect(rows).toContainText("bad-ident");
    // Nothing is written by the check.
    const token = await apiToken(request);
    const before = await request.post("/api/devices/export", { headers: { token }, data: {} });
    expect(await before.text()).not.toContain(gate);
    expect(await sidewaysOverflow(page, "import-rows")).toBe(0);
    await shot(page, `device-import-check-${variant.name}`);

    await page.getByRole("button", { name: isRu ? "Применить" : "Apply" }).click();
    const done = page.getByTestId("import-done");
    await expect(done).toBeVisible();
    await expect(counts).toContainText(isRu ? "Создано: 2" : "Created: 2");
    const downloading = page.waitForEvent("download");
    await done
      .getByRole("button", { name: isRu ? "Скачать ключи (CSV)" : "Download the keys (CSV)" })
      .click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe("router-keys.csv");
    const keys = readFileSync((await download.path()) as string, "utf8")
      .trim()
      .split(/\r?\n/);
    expect(keys[0]).toBe("ident,key");
    expect(
      keys
        .slice(1)
        .map((line) => line.split(",")[0])
        .sort(),
    ).toEqual([gate, pump].sort());
    for (const line of keys.slice(1)) expect(line.split(",")[1]).toMatch(/^[0-9A-F]{64}$/);
    await shot(page, `device-import-done-${variant.name}`);

    await page.goto("/dashboard");
    await expect(page.getByText(gate)).toBeVisible();
  });
}
