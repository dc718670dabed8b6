import {
  commandTopic,
  noticeTopic,
  PROTOCOL_TOPIC_ROOT,
  publisherClientId,
  tunnelTopic,
} from "@cellfleet/contract";
import type { DynsecCommand, DynsecResponse } from "../../platform/mqtt/dynsec";
import { reportsFilter } from "../../platform/mqtt/external-subscriber";

// What Mosquitto's dynamic-security plugin is told for each router (docs/operations.md, "Mosquitto"):
// a client whose user name and client id are the ident and whose password is the device token, a
// second one `{ident}-p` for the router's publishing connection (docs/device-protocol.md 2, ADR 030)
// with the same password, and a role of its own that both hold with the protocol's ACL in literal topics (Mosquitto 2.0 substitutes %c in
// subscribe ACLs only, so a shared role with patterns would not bind publishes to the ident).

/** The role the server's own account gets: read every report, send commands and notices. */
export const SERVER_ROLE = "cellfleet-server";

/** The role of one router. */
export function deviceRoleName(ident: string): string {
  return `cellfleet-device-${ident}`;
}

/**
 * The router's ACL: publish under its own topics (unknown v1 ones too, so the server can tell it
 * `unsupported_topic`; another version's, so the connection is not closed for them), never on its
 * command, notice or tunnel topic; subscribe to exactly those three.
 * Higher priority is checked first.
 */
export function deviceRoleAcls(ident: string) {
  return [
    { acltype: "publishClientSend", topic: commandTopic(ident), priority: 10, allow: false },
    { acltype: "publishClientSend", topic: noticeTopic(ident), priority: 10, allow: false },
    { acltype: "publishClientSend", topic: tunnelTopic(ident), priority: 10, allow: false },
    { acltype: "publishClientSend", topic: `${PROTOCOL_TOPIC_ROOT}/${ident}/#`, priority: 1, allow: true },
    // Another major version's topics (v2): let through so the connection stays (nobody subscribes).
    { acltype: "publishClientSend", topic: `cellfleet/+/${ident}/#`, priority: 0, allow: true },
    { acltype: "subscribeLiteral", topic: commandTopic(ident), priority: 1, allow: true },
    { acltype: "subscribeLiteral", topic: noticeTopic(ident), priority: 1, allow: true },
    { acltype: "subscribeLiteral", topic: tunnelTopic(ident), priority: 1, allow: true },
  ];
}

/** The server's role: subscribe to every report (plainly or through a shared group), publish commands and notices. */
export const SERVER_ROLE_ACLS = [
  { acltype: "subscribePattern", topic: reportsFilter(false), priority: 1, allow: true },
  { acltype: "subscribePattern", topic: reportsFilter(true, "+"), priority: 1, allow: true },
  { acltype: "publishClientSend", topic: commandTopic("+"), priority: 1, allow: true },
  { acltype: "publishClientSend", topic: noticeTopic("+"), priority: 1, allow: true },
  { acltype: "publishClientSend", topic: tunnelTopic("+"), priority: 1, allow: true },
];

/** A router as the broker should know it: with its token, or absent (deleted, or no key). */
export type WantedAccount = { ident: string; token: string } | { ident: string; token: null };

/** The broker clients of one router: its main connection's, then its publishing connection's. */
function clientNames(ident: string): [string, string] {
  return [ident, publisherClientId(ident)];
}

/** How many commands {@link createCommands} makes for one account, answered in order. */
export const COMMANDS_PER_ACCOUNT = 3;

/** First pass: create the role and both clients (answers "already exists" when they are there). */
export function createCommands(account: WantedAccount): DynsecCommand[] {
  if (account.token === null) {
    return [
      ...clientNames(account.ident).map((username) => ({ command: "deleteClient", username })),
      { command: "deleteRole", rolename: deviceRoleName(account.ident) },
    ];
  }
  const { token } = account;
  return [
    { command: "createRole", rolename: deviceRoleName(account.ident), acls: deviceRoleAcls(account.ident) },
    ...clientNames(account.ident).map((username) => ({
      command: "createClient",
      username,
      clientid: username,
      password: token,
      roles: [{ rolename: deviceRoleName(account.ident) }],
    })),
  ];
}

/** Errors that mean the wanted state is already there. */
const SETTLED = /already exists|not found/i;

/** Throws on the first answer whose error is not one of those; `about` names what it was for. */
export function assertSettled(responses: readonly DynsecResponse[], about = ""): void {
  const failed = responses.find((response) => response.error && !SETTLED.test(response.error));
  if (failed) throw new Error(`dynamic-security ${failed.command}${about}: ${failed.error}`);
}

/**
 * Second pass for the accounts whose clients already existed: their password is set again (a new
 * key). Mosquitto disconnects a client whose password is set, so a reconcile that only makes sure
 * accounts exist (`isKeyChanged` false) never sends it. Throws on any other error, so the job retries.
 */
export function followUpCommands(
  account: WantedAccount,
  responses: readonly DynsecResponse[],
  isKeyChanged: boolean,
): DynsecCommand[] {
  assertSettled(responses, ` for ${account.ident}`);
  if (account.token === null || !isKeyChanged) return [];
  const { token } = account;
  // Answers 1 and 2 are the two createClient commands, in the order of clientNames.
  return clientNames(account.ident)
    .filter((_, index) => responses[index + 1]?.error)
    .map((username) => ({ command: "setClientPassword", username, password: token }));
}
