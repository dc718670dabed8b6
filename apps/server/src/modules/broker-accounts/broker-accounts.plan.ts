import { commandTopic, noticeTopic, PROTOCOL_TOPIC_ROOT } from "@cellfleet/contract";
import type { DynsecCommand, DynsecResponse } from "../../platform/mqtt/dynsec";
import { reportsFilter } from "../../platform/mqtt/external-subscriber";

// What Mosquitto's dynamic-security plugin is told for each router (docs/operations.md, "Mosquitto"):
// a client whose user name and client id are the ident and whose password is the device token, and
// a role of its own with the protocol's ACL in literal topics (Mosquitto 2.0 substitutes %c in
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
 * command or notice topic; subscribe to exactly those two.
 * Higher priority is checked first.
 */
export function deviceRoleAcls(ident: string) {
  return [
    { acltype: "publishClientSend", topic: commandTopic(ident), priority: 10, allow: false },
    { acltype: "publishClientSend", topic: noticeTopic(ident), priority: 10, allow: false },
    { acltype: "publishClientSend", topic: `${PROTOCOL_TOPIC_ROOT}/${ident}/#`, priority: 1, allow: true },
    // Another major version's topics (v2): let through so the connection stays (nobody subscribes).
    { acltype: "publishClientSend", topic: `cellfleet/+/${ident}/#`, priority: 0, allow: true },
    { acltype: "subscribeLiteral", topic: commandTopic(ident), priority: 1, allow: true },
    { acltype: "subscribeLiteral", topic: noticeTopic(ident), priority: 1, allow: true },
  ];
}

/** The server's role: subscribe to every report (plainly or through a shared group), publish commands and notices. */
export const SERVER_ROLE_ACLS = [
  { acltype: "subscribePattern", topic: reportsFilter(false), priority: 1, allow: true },
  { acltype: "subscribePattern", topic: reportsFilter(true, "+"), priority: 1, allow: true },
  { acltype: "publishClientSend", topic: commandTopic("+"), priority: 1, allow: true },
  { acltype: "publishClientSend", topic: noticeTopic("+"), priority: 1, allow: true },
];

/** A router as the broker should know it: with its token, or absent (deleted, or no key). */
export type WantedAccount = { ident: string; token: string } | { ident: string; token: null };

/** First pass: create the role and client (answers "already exists" when they are there). */
export function createCommands(account: WantedAccount): DynsecCommand[] {
  if (account.token === null) {
    return [
      { command: "deleteClient", username: account.ident },
      { command: "deleteRole", rolename: deviceRoleName(account.ident) },
    ];
  }
  return [
    { command: "createRole", rolename: deviceRoleName(account.ident), acls: deviceRoleAcls(account.ident) },
    {
      command: "createClient",
      username: account.ident,
      clientid: account.ident,
      password: account.token,
      roles: [{ rolename: deviceRoleName(account.ident) }],
    },
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
 * Second pass for the accounts whose client already existed: its password is set again (a new
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
  const client = responses.find((response) => response.command === "createClient");
  if (!client?.error) return [];
  return [{ command: "setClientPassword", username: account.ident, password: account.token }];
}
