import { deriveDeviceToken } from "@cellfleet/contract";
import type { Kysely } from "kysely";
import type { DB } from "../../platform/db/schema";
import type { DynsecClient } from "../../platform/mqtt/dynsec";
import {
  assertSettled,
  COMMANDS_PER_ACCOUNT,
  createCommands,
  followUpCommands,
  SERVER_ROLE,
  SERVER_ROLE_ACLS,
  type WantedAccount,
} from "./broker-accounts.plan";
import { brokerAccountsRepo } from "./broker-accounts.repo";

/** Accounts per control message: the plugin rewrites its whole file once per message, not per command. */
const ACCOUNTS_PER_MESSAGE = 200;

/**
 * Makes the broker's accounts of these routers match the database: a router with a key has two
 * clients (user name = client id = ident, and `{ident}-p` for its publishing connection; password =
 * its token) bound to its own role; a deleted
 * router or one without a key has none. Idempotent, so a job may run it again after a crash.
 */
export async function syncBrokerAccounts(
  db: Kysely<DB>,
  dynsec: DynsecClient,
  idents: readonly string[],
  options: { isKeyChanged: boolean } = { isKeyChanged: true },
): Promise<number> {
  const keys = await brokerAccountsRepo(db).findKeysByIdentsAcrossDomains(idents);
  const wanted: WantedAccount[] = await Promise.all(
    [...new Set(idents)].map(async (ident) => {
      const key = keys.get(ident);
      return key ? { ident, token: await deriveDeviceToken(ident, key) } : { ident, token: null };
    }),
  );
  for (let i = 0; i < wanted.length; i += ACCOUNTS_PER_MESSAGE) {
    const chunk = wanted.slice(i, i + ACCOUNTS_PER_MESSAGE);
    const responses = await dynsec.send(chunk.flatMap(createCommands));
    // COMMANDS_PER_ACCOUNT commands per account, answered in order.
    const followUps = chunk.flatMap((account, index) =>
      followUpCommands(
        account,
        responses.slice(index * COMMANDS_PER_ACCOUNT, (index + 1) * COMMANDS_PER_ACCOUNT),
        options.isKeyChanged,
      ),
    );
    assertSettled(await dynsec.send(followUps));
  }
  return wanted.length;
}

/**
 * Every router's account, page by page (turning MQTT_DYNSEC on for an existing fleet): creates the
 * missing ones and removes those of keyless routers; an existing client keeps its password, so a
 * server's start never disconnects the fleet. Accounts of routers deleted while MQTT_DYNSEC was off
 * are not found here (the broker is not listed): docs/operations.md says how to remove them.
 */
export async function syncAllBrokerAccounts(db: Kysely<DB>, dynsec: DynsecClient): Promise<number> {
  const repo = brokerAccountsRepo(db);
  let after = "";
  let total = 0;
  for (;;) {
    const idents = await repo.listIdentsAcrossDomains(after, 1000);
    if (idents.length === 0) return total;
    total += await syncBrokerAccounts(db, dynsec, idents, { isKeyChanged: false });
    after = idents[idents.length - 1] as string;
  }
}

/**
 * At start: the server's own role exists and its account (MQTT_URL's user name) holds it, so its
 * subscription to every report and its commands are allowed. Throws when the plugin does not
 * answer or refuses, which is what can be checked of the broker before taking reports.
 */
export async function prepareServerAccount(dynsec: DynsecClient, serverUsername: string): Promise<void> {
  assertSettled(
    await dynsec.send([{ command: "createRole", rolename: SERVER_ROLE, acls: SERVER_ROLE_ACLS }]),
  );
  if (await hasRole(dynsec, serverUsername)) return;
  // Mosquitto disconnects a client whose roles change, this very connection included: post the
  // change, then ask again once the client has reconnected.
  await dynsec.post([{ command: "addClientRole", username: serverUsername, rolename: SERVER_ROLE }]);
  for (let attempt = 0; attempt < 10; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    if (await hasRole(dynsec, serverUsername).catch(() => false)) return;
  }
  throw new Error(`dynamic-security: ${serverUsername} did not get the ${SERVER_ROLE} role`);
}

async function hasRole(dynsec: DynsecClient, username: string): Promise<boolean> {
  const [answer] = await dynsec.send([{ command: "getClient", username }]);
  if (answer?.error) throw new Error(`dynamic-security getClient ${username}: ${answer.error}`);
  const roles = (answer?.data as { client?: { roles?: Array<{ rolename: string }> } } | undefined)?.client
    ?.roles;
  return (roles ?? []).some((role) => role.rolename === SERVER_ROLE);
}
