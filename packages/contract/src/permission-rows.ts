import { SUBJECT_KINDS, type SubjectKind } from "./permission-subjects";
import type { Plugin } from "./roles";

// The rows of the one permission table (ADR 009): every named action, who may do it, whether it
// saves, its plugin. What a row means for a person, with a target and approvals, permissions.ts decides.

/** One row of the table: who may, whether the action saves, and the plugin that enables it. */
export interface PermissionRule {
  readonly who: readonly SubjectKind[];
  /** The action changes something, so the demo user is refused (DEMO_PERMISSIONS_DENIED). */
  readonly saves: boolean;
  /** The feature's plugin (spec section 1); without it the action is refused. */
  readonly plugin?: Plugin;
  /** Why the row is as it is, where the spec is not plain about it. */
  readonly note?: string;
  /** false: an API token may never carry it (ADR 040: tokens never manage tokens). */
  readonly byToken?: false;
  /**
   * true: it reads a record of the whole domain that names routers of every tag in its own words,
   * with no router to cut it by, so a caller limited to tags is refused it (ADR 041).
   */
  readonly wholeDomain?: true;
}

const EVERYONE: readonly SubjectKind[] = SUBJECT_KINDS;
/** Everybody who belongs to a domain (superusers have none and no device views). */
const DOMAIN: readonly SubjectKind[] = ["admin", "assistant", "junior", "operator"];
/** Admins and assistants: everyone in a domain but the view-only operator. */
const HELPERS: readonly SubjectKind[] = ["admin", "assistant", "junior"];
/** Accounting staff: everyone but the operator. */
const STAFF: readonly SubjectKind[] = ["superuser", "admin", "assistant", "junior"];
const MANAGERS: readonly SubjectKind[] = ["superuser", "admin"];
const ADMIN: readonly SubjectKind[] = ["admin"];
const ROOT: readonly SubjectKind[] = ["superuser"];

/** The permission table: action → rule. Section numbers refer to the spec. */
export const PERMISSIONS = {
  // The own account: session, profile page, settings page, logout (every signed-in person).
  "account.self": { who: EVERYONE, saves: false },
  "profile.edit": { who: EVERYONE, saves: true },
  "profile.secondFactor": {
    who: EVERYONE,
    saves: true,
    byToken: false,
    note: "one's own TOTP app, passkeys and recovery codes (ADR 039); never with an API token (ADR 040)",
  },
  "accounting.view": { who: EVERYONE, saves: false, note: "the /accounting page lists what one may open" },
  "administration.view": { who: STAFF, saves: false, note: "the Accounting menu entry, hidden for role 4" },

  "devices.view": { who: DOMAIN, saves: false },
  "uptime.view": { who: DOMAIN, saves: false },
  "devices.create": { who: ADMIN, saves: true },
  "devices.importCheck": {
    who: ADMIN,
    saves: false,
    note: "the dry run of an import file, asked by those who may create routers (ADR 042); its rows name routers of any tag by ident",
    wholeDomain: true,
  },
  "devices.edit": { who: HELPERS, saves: true, note: "operators are view-only" },
  "devices.delete": { who: ADMIN, saves: true, note: "assistants cannot delete devices" },

  "dataPlans.edit": {
    who: ADMIN,
    saves: true,
    note: "data plans of SIMs and tags are the domain's settings, which only admins save",
    wholeDomain: true,
  },

  "events.view": { who: DOMAIN, saves: false },
  "events.markRead": { who: DOMAIN, saves: true },

  "commands.view": { who: DOMAIN, saves: false },
  "commands.create": { who: HELPERS, saves: true, note: "operators cannot create commands" },
  "commands.dryRun": {
    who: HELPERS,
    saves: false,
    note: "what a new command would do, asked by those who may create one (the demo user too)",
  },
  "commands.approve": { who: ["admin", "assistant"], saves: true, note: "see canApprove" },
  "commands.cancel": {
    who: HELPERS,
    saves: true,
    note: "one's own command; another's under the four-eyes rule of approving it (see canCancel)",
  },
  "commandTypes.view": { who: HELPERS, saves: false, note: "not fetched for operators and superusers" },
  "commandTypes.manage": { who: ADMIN, saves: true, note: "/user-command is admin-only" },

  // Remote access (issue 29, ADR 038): an admin opens at once; an assistant's or a junior's request
  // waits for approval as a command does (tunnels.approve, four eyes); operators and demo never.
  "tunnels.view": { who: HELPERS, saves: false, note: "the open sessions of the domain (`peers`)" },
  "tunnels.open": {
    who: HELPERS,
    saves: true,
    note: "a request; needsApproval says whether it waits (an admin's does not)",
  },
  "tunnels.approve": {
    who: ["admin", "assistant"],
    saves: true,
    note: "target: the author, as commands.approve",
  },
  "tunnels.end": { who: HELPERS, saves: true, note: "target: the author; one's own, or an admin any" },

  "scripts.view": { who: HELPERS, saves: false },
  "scripts.edit": { who: STAFF, saves: true, note: "/script/{id} admits roles 1-3" },
  "packages.view": { who: HELPERS, saves: false },
  "firmwares.view": {
    who: HELPERS,
    saves: false,
    note: "the domain's firmware files (software rules are root's)",
  },
  "templates.view": { who: HELPERS, saves: false },
  "templates.edit": {
    who: ADMIN,
    saves: true,
    note: "admins create templates; the menu entry is admin-only; a template holds values for routers of any tag",
    wholeDomain: true,
  },

  "zeroTouch.view": {
    who: ADMIN,
    saves: false,
    note: "zero-touch configurations and the adoption list create routers of the domain: admins only (spec sections 1, 6)",
    wholeDomain: true,
  },
  // Routers not yet in the domain carry no tag to cut by: not for an admin's token narrowed to tags.
  "zeroTouch.manage": { who: ADMIN, saves: true, wholeDomain: true },

  "files.view": { who: DOMAIN, saves: false },
  "files.upload": {
    who: HELPERS,
    saves: true,
    note: "and rename; superusers have no domain files (firmware sources are software rules)",
  },
  "files.delete": { who: ADMIN, saves: true, note: "only admins see file delete" },
  "files.downloadBackups": {
    who: HELPERS,
    saves: false,
    note: "a router's backup holds its keys and passwords: hidden from view-only operators",
  },
  "reports.view": { who: DOMAIN, saves: false },

  "settings.view": { who: DOMAIN, saves: false, note: "superusers do not see the settings entry" },
  // The domain's settings move every router (thresholds, copies, rollouts accepted by themselves).
  "settings.save": { who: ADMIN, saves: true, note: "only admin saves domain settings", wholeDomain: true },
  "crontab.view": { who: ADMIN, saves: false, note: "only admin loads the crontab" },
  "crontab.manage": { who: ADMIN, saves: true },

  "notifications.list": {
    who: EVERYONE,
    saves: false,
    note: "the lists answer empty without the notification plugin (spec section 6)",
  },
  "notifications.view": { who: EVERYONE, saves: false, plugin: "notification" },
  "notifications.edit": { who: STAFF, saves: true, plugin: "notification", note: "operators are view-only" },
  "transports.edit": { who: MANAGERS, saves: true, plugin: "notification", note: "assistants cannot" },
  "transports.delete": { who: MANAGERS, saves: true, plugin: "notification", note: "assistants cannot" },

  "users.view": { who: STAFF, saves: false },
  "users.create": {
    who: MANAGERS,
    saves: true,
    note: "Add user only for superuser or admin; target: the role",
  },
  "users.edit": { who: STAFF, saves: true, note: "target: the user's role, see TARGET_RULES" },
  "users.delete": { who: MANAGERS, saves: true, note: "target: the user's role" },
  "users.resetSecondFactor": {
    who: MANAGERS,
    saves: true,
    byToken: false,
    note: "removes a member's second factor; target: the user's role, as for users.edit; never with an API token",
  },
  "users.limitTags": {
    who: MANAGERS,
    saves: true,
    note: "limits an assistant, a junior or an operator to routers with chosen tags (ADR 041)",
  },
  "users.seePolicy": { who: MANAGERS, saves: false, plugin: "accounting", note: "the policy column" },
  "users.grantAnyPlugin": { who: ROOT, saves: true, note: "others grant only plugins they have" },
  "users.anyDomain": { who: ROOT, saves: false, note: "names the domain of a user it creates or reads" },
  "superusers.view": { who: ROOT, saves: false },
  "superusers.manage": { who: ROOT, saves: true },
  "domains.view": { who: ROOT, saves: false },
  "domains.manage": { who: ROOT, saves: true, note: "domains and their admins" },

  "policies.list": { who: MANAGERS, saves: false, note: "answers empty without the accounting plugin" },
  "policies.view": { who: MANAGERS, saves: false, plugin: "accounting" },
  "policies.create": {
    who: ROOT,
    saves: true,
    plugin: "accounting",
    note: "only the superuser adds policies",
  },
  "policies.edit": {
    who: MANAGERS,
    saves: true,
    plugin: "accounting",
    note: "target: admins not global ones",
  },
  // The audit log names routers of every tag: not for a tag-limited caller (an admin's scoped token).
  "logs.view": { who: MANAGERS, saves: false, wholeDomain: true },

  "software.view": { who: ROOT, saves: false },
  "software.manage": { who: ROOT, saves: true },
  // Root's rollouts offered to the admin's domain: accepted or declined there (ADR 031).
  // An offer counts and moves every router of the domain the rollout takes: not within a tag scope.
  "rolloutOffers.view": { who: ADMIN, saves: false, wholeDomain: true },
  "rolloutOffers.decide": { who: ADMIN, saves: true, wholeDomain: true },
  "licenses.view": { who: ROOT, saves: false },
  "licenses.manage": { who: ROOT, saves: true },
  "keychain.view": { who: EVERYONE, saves: false, plugin: "keychain" },
  // Jobs name rules, routers and recipients of the whole domain in their keys and payloads.
  "jobs.view": {
    who: MANAGERS,
    saves: false,
    note: "superusers see every domain's jobs, admins their own",
    wholeDomain: true,
  },
  "jobs.retry": { who: MANAGERS, saves: true, note: "a dead job is retried by a person", wholeDomain: true },
  "mqtt.stats": { who: ROOT, saves: false },
  // Personal API tokens (ADR 040): one's own, and an admin's view of the domain's. No token manages tokens.
  "apiTokens.view": { who: EVERYONE, saves: false, byToken: false },
  "apiTokens.manage": { who: EVERYONE, saves: true, byToken: false },
  "apiTokens.viewDomain": { who: ADMIN, saves: false, byToken: false },
  "apiTokens.revokeDomain": { who: ADMIN, saves: true, byToken: false },
} as const satisfies Record<string, PermissionRule>;

/** A named action of the permission table. */
export type PermissionAction = keyof typeof PERMISSIONS;

/** Every action of the table. */
export const PERMISSION_ACTIONS = Object.keys(PERMISSIONS) as PermissionAction[];

/** Whether a string names an action of the table. */
export function isPermissionAction(value: string): value is PermissionAction {
  return Object.hasOwn(PERMISSIONS, value);
}
