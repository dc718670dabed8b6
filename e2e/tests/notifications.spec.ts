// Notifications end to end (issue 15): a person creates a Telegram provider (finding the chat id
// through the bot's updates, sending a test message) and a 'device status change' rule; a simulated
// router goes silent and critical; the message reaches the loopback Bot API and the delivery log
// shows it sent. Then every notification screen in the four looks, saved for a person to look at.
// The test runs a server of its own (support/notify-server.ts) whose clock it moves forward.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { type BotApiServer, botUpdate, startBotApiServer } from "../../apps/server/src/test/bot-api-server";
import { QUIET_BEHAVIOUR, VirtualRouter } from "../../apps/simulator/src/index";
import { NOTIFY_ADMIN, NOTIFY_ROUTER, ROOT_PASSWORD } from "../support/accounts";
import { freePort } from "../support/mailbox";
import { shot } from "../support/shots";

const BOT_TOKEN = "777000111:AAH-e2e_loopback_bot_token_for_cellfleet";
const CHAT_ID = "424242";

test.describe.configure({ mode: "serial" });

let bot: BotApiServer;
let server: ChildProcess;
let baseURL: string;
let mqttUrl: string;
let router: VirtualRouter | null = null;
const lines: string[] = [];

/** Resolves with the first line of the server's output matching `pattern` from now on. */
function nextLine(pattern: RegExp, timeoutMs = 60_000): Promise<string> {
  const start = lines.length;
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const found = lines.slice(start).find((line) => pattern.test(line));
      if (found) {
        clearInterval(timer);
        clearTimeout(limit);
        resolve(found);
      }
    }, 50);
    const limit = setTimeout(() => {
      clearInterval(timer);
      reject(new Error(`the notify server never said ${pattern}`));
    }, timeoutMs);
  });
}

async function command(text: string, answer: RegExp): Promise<string> {
  const reply = nextLine(answer);
  server.stdin?.write(`${text}\n`);
  return reply;
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  bot = await startBotApiServer({
    tokens: [BOT_TOKEN],
    chats: { [CHAT_ID]: { type: "private", title: "NOC duty" } },
  });
  // Someone wrote to the bot: the chat-id lookup finds that chat.
  bot.updates.push(botUpdate(1, { id: Number(CHAT_ID), type: "private", first_name: "NOC duty" }));
  const port = await freePort();
  baseURL = `http://127.0.0.1:${port}`;
  server = spawn("npx", ["tsx", "support/notify-server.ts"], {
    cwd: join(import.meta.dirname, ".."),
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: mkdtempSync(join(tmpdir(), "cellfleet-e2e-notify-")),
      CELLFLEET_ROOT_PASSWORD: ROOT_PASSWORD,
      TELEGRAM_API_URL: bot.url,
      MQTT_PORT: "0",
      SIMULATE: "0",
      LOG_LEVEL: "warn",
      LOGIN_RATE_LIMIT: "1000",
    },
    stdio: ["pipe", "pipe", "inherit"],
  });
  let buffered = "";
  server.stdout?.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split("\n");
    buffered = parts.pop() ?? "";
    lines.push(...parts);
  });
  mqttUrl = (await nextLine(/^ready /, 90_000)).slice("ready ".length);
});

// A failed run prints what the server said (its warnings and errors: a job that failed and waits for
// its retry) and every Bot API call with its answer, so a message that never came can be traced.
test.afterEach(() => {
  const { status, expectedStatus } = test.info();
  if (status === expectedStatus) return;
  console.log(`the notify server said:\n${lines.slice(-80).join("\n")}`);
  console.log(`Bot API calls: ${JSON.stringify(bot?.calls ?? [])}`);
});

test.afterAll(async () => {
  await router?.stop();
  server?.stdin?.end();
  await new Promise((resolve) => server?.once("exit", resolve));
  await bot?.close();
});

async function signInNotify(page: Page, locale = "en") {
  await page.context().addCookies([
    { name: "version", value: "1", url: baseURL },
    { name: "locale", value: locale, url: baseURL },
  ]);
  // This test's own server, not the suite's: the shared sign-in helper opens the suite's.
  await page.goto(`${baseURL}/login`);
  await page.getByLabel(/username/i).fill(NOTIFY_ADMIN.username);
  await page.getByLabel(/^password/i).fill(NOTIFY_ADMIN.password);
  await page.getByRole("button", { name: /^sign in$/i }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

test("a Telegram provider and a status rule tell the Bot API when a router goes critical", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInNotify(page);

  // The router connects and is online.
  router = new VirtualRouter({
    ...NOTIFY_ROUTER,
    url: mqttUrl,
    intervalMs: 2000,
    reconnectPeriodMs: 500,
    behaviour: QUIET_BEHAVIOUR,
  });
  await router.start();

  // A Telegram provider: the chat id comes from the bot's updates, and a test message goes out.
  await page.goto(`${baseURL}/notifications?tab=transports`);
  await page.getByRole("button", { name: /^add$/i }).click();
  await expect(page).toHaveURL(/\/notifications\/transport\/new$/);
  await page.getByLabel(/^name/i).fill("Duty bot");
  await page.getByLabel(/^bot token/i).fill(BOT_TOKEN);
  await page.getByRole("button", { name: /look up chat id/i }).click();
  await page.getByTestId("chat-lookup-chat").filter({ hasText: CHAT_ID }).click();
  await expect(page.getByLabel(/^chat id/i)).toHaveValue(CHAT_ID);
  await page.getByLabel(/^message prefix/i).fill("[NOC]");
  await page.getByRole("button", { name: /send a test message/i }).click();
  await expect(page.getByTestId("transport-test-result")).toHaveText("The test message was sent");
  expect(bot.messages.at(-1)?.text).toContain("This is a Cellfleet test message");
  await page.getByRole("button", { name: /^create$/i }).click();
  await expect(page).toHaveURL(/\/notifications\/transport\/[^/]+\/edit$/);

  // A 'device status change' rule through it.
  await page.goto(`${baseURL}/notifications`);
  await page.getByRole("button", { name: /^add$/i }).click();
  await expect(page).toHaveURL(/\/notifications\/rule\/new$/);
  await page.getByLabel(/^name/i).fill("Critical routers");
  await page.getByLabel(/^tolerance/i).fill("0");
  await page.getByTestId("rule-transport").locator("..").click();
  await page.getByRole("option", { name: /duty bot/i }).click();
  await page.getByRole("button", { name: /^save$/i }).click();
  await expect(page).toHaveURL(/\/notifications\/rule\/[^/]+$/);
  await page.goto(`${baseURL}/notifications`);
  await expect(page.getByTestId("rules-table")).toContainText("Critical routers");
  await expect(page.getByTestId("list-card")).toContainText("Total: 1, active: 1");

  // The router goes silent once its reports are stored (a report is acknowledged after its batch
  // commits; on a busy machine the first may still be on its way); twenty minutes later it is critical.
  const reporting = router;
  await expect.poll(() => reporting.stats.acked, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
  await router.stop();
  router = null;
  await command("settle", /^settled$/);
  await command("advance 1200000", /^advanced /);
  expect(await command("sweep", /^swept \d+/)).not.toBe("swept 0");
  const sent = await bot.waitForMessages(2, 60_000);
  expect(sent.at(-1)?.chatId).toBe(CHAT_ID);
  expect(sent.at(-1)?.text).toMatch(/^\[NOC\] Critical routers: E2ECRIT1: status critical/);

  // The delivery log shows it sent, and the bell counts it.
  await page.goto(`${baseURL}/notifications?tab=log`);
  const row = page.getByTestId("delivery-row").first();
  await expect(row).toHaveAttribute("data-state", "sent");
  await expect(row).toContainText("Critical routers: E2ECRIT1: status critical");
  await row.getByRole("button", { name: /show the message/i }).click();
  await expect(row.getByTestId("delivery-text")).toContainText("Started (1):");
  await expect(page.getByTestId("news-bell")).toContainText("1");
  await shot(page, "notifications-delivered");
});

const VARIANTS = [
  { name: "desktop-light-en", width: 1440, height: 900, theme: "light", locale: "en" },
  { name: "desktop-dark-ru", width: 1440, height: 900, theme: "dark", locale: "ru" },
  { name: "mobile-light-ru", width: 390, height: 844, theme: "light", locale: "ru" },
  { name: "mobile-dark-en", width: 390, height: 844, theme: "dark", locale: "en" },
] as const;

for (const variant of VARIANTS) {
  test(`the notification screens, ${variant.name}`, async ({ page, context }) => {
    await page.setViewportSize({ width: variant.width, height: variant.height });
    await context.addInitScript((theme) => localStorage.setItem("cellfleet.theme", theme), variant.theme);
    await signInNotify(page, "en");
    await context.addCookies([{ name: "locale", value: variant.locale, url: baseURL }]);
    const look = async (path: string, screen: string, ready: () => Promise<void>) => {
      await page.goto(`${baseURL}${path}`);
      await ready();
      await shot(page, `notifications-${variant.name}-${screen}`);
    };
    await look("/notifications", "rules", () => expect(page.getByTestId("rules-table")).toBeVisible());
    const ruleLink = page.getByTestId("rules-table").locator("tbody tr").first();
    await ruleLink.click();
    await expect(page).toHaveURL(/\/notifications\/rule\/[^/]+$/);
    await look(new URL(page.url()).pathname, "rule", () =>
      expect(page.getByTestId("rule-monitor")).toBeAttached(),
    );
    await look("/notifications/rule/new", "rule-new", () =>
      expect(page.getByTestId("rule-monitor")).toBeAttached(),
    );
    await look("/notifications?tab=transports", "providers", () =>
      expect(page.getByTestId("transports-table")).toBeVisible(),
    );
    await page.getByTestId("transports-table").locator("tbody tr").first().click();
    await expect(page).toHaveURL(/\/edit$/);
    await look(new URL(page.url()).pathname, "provider", () =>
      expect(page.getByTestId("transport-type")).toBeAttached(),
    );
    await look("/notifications/transport/new", "provider-new", () =>
      expect(page.getByTestId("transport-type")).toBeAttached(),
    );
    for (const type of ["webhook", "smtp"] as const) {
      await page.getByTestId("transport-type").locator("..").click();
      await page.locator(`li[data-value="${type}"]`).click();
      await shot(page, `notifications-${variant.name}-provider-${type}`);
    }
    await look("/notifications?tab=log", "log", async () => {
      const row = page.getByTestId("delivery-row").first();
      await expect(row).toBeVisible();
      await row.getByRole("button").first().click();
      await expect(row.getByTestId("delivery-text")).toBeVisible();
    });
    await page.getByTestId("news-bell").click();
    await expect(page.getByTestId("news-list")).toBeVisible();
    await shot(page, `notifications-${variant.name}-bell`);
  });
}
