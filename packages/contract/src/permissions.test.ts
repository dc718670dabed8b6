import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type ApprovalParty,
  can,
  canApprove,
  canCancel,
  decide,
  kindOf,
  mayOffer,
  needsApproval,
  PERMISSION_ACTIONS,
  type PermissionAction,
  type PermissionSubject,
  SUBJECT_KINDS,
  type SubjectKind,
} from "./permissions";
import { PLUGINS, type Role } from "./roles";

// The permission table checked against spec sections 1, 2 and 6, written out here a second time on
// purpose: every action × every kind of person, so a change to the table must be made twice.

const ROLE_OF: Record<SubjectKind, Role> = { superuser: 1, admin: 2, assistant: 3, junior: 3, operator: 4 };

function person(kind: SubjectKind, extra: Partial<PermissionSubject> = {}): PermissionSubject {
  return {
    _id: `id-${kind}`,
    role: ROLE_OF[kind],
    is_junior: kind === "junior",
    is_demo: false,
    plugins: [...PLUGINS],
    ...extra,
  };
}

// Columns: superuser, admin, assistant, junior assistant, operator. Y may, - may not.
const EXPECTED: Record<PermissionAction, string> = {
  "account.self": "Y Y Y Y Y",
  "profile.edit": "Y Y Y Y Y",
  "profile.secondFactor": "Y Y Y Y Y", // one's own factors (issue 30)
  "accounting.view": "Y Y Y Y Y", // route /accounting: 1-4
  "administration.view": "Y Y Y Y -", // §2: accounting menu hidden for role 4
  "devices.view": "- Y Y Y Y", // §6: the superuser has no device views
  "devices.create": "- Y - - -", // route /devices/new: 2
  "devices.importCheck": "- Y - - -", // as devices.create, without saving (ADR 042)
  "devices.edit": "- Y Y Y -", // §6: operators view only
  "devices.delete": "- Y - - -", // §6: assistants cannot delete devices
  "zeroTouch.view": "- Y - - -", // §1, §6: zero-touch creates routers of the domain, as only admins do
  "zeroTouch.manage": "- Y - - -",
  "dataPlans.edit": "- Y - - -", // data plans are domain settings, which only admins save (§3, §6)
  "events.view": "- Y Y Y Y", // §6: the superuser does not load events
  "events.markRead": "- Y Y Y Y",
  "commands.view": "- Y Y Y Y", // route /commands: 2,3,4
  "commands.create": "- Y Y Y -", // route /commands/new: 2,3
  "commands.dryRun": "- Y Y Y -", // as commands.create, without saving
  "commands.approve": "- Y Y - -", // §4, §6: admins and assistants; juniors never
  "commands.cancel": "- Y Y Y -", // one's own; another's only as approving it (issue 27)
  "commandTypes.view": "- Y Y Y -", // §6: not fetched for operators or the superuser
  "commandTypes.manage": "- Y - - -", // route /user-command: 2
  "tunnels.view": "- Y Y Y -", // issue 29: operators never reach a router's shell
  "tunnels.open": "- Y Y Y -", // issue 29: an admin at once, an assistant's or a junior's after approval
  "tunnels.approve": "- Y Y - -", // issue 29: approved as a command is (four eyes)
  "tunnels.end": "- Y Y Y -", // one's own session; an admin anybody's
  "scripts.view": "- Y Y Y -", // route /scripts: 2,3
  "scripts.edit": "Y Y Y Y -", // route /script/{id}: 1,2,3
  "packages.view": "- Y Y Y -",
  "firmwares.view": "- Y Y Y -",
  "templates.view": "- Y Y Y -", // route /templates: 2,3
  "templates.edit": "- Y - - -", // route /templates/new: 2; §6: admins create templates
  "files.view": "- Y Y Y Y",
  "files.upload": "- Y Y Y -", // §6: superusers have no domain files
  "files.delete": "- Y - - -", // §6: only admins see file delete
  "files.downloadBackups": "- Y Y Y -", // §6: sensitive sections hidden from operators (keys in a backup)
  "reports.view": "- Y Y Y Y", // route /reports: 2,3,4
  "uptime.view": "- Y Y Y Y", // route /uptime: 2,3,4 (ADR 044), like the device pages
  "settings.view": "- Y Y Y Y", // §6: the superuser does not see the settings entry
  "settings.save": "- Y - - -", // §6: only admin saves domain settings
  "crontab.view": "- Y - - -", // §6: only admin loads the crontab
  "crontab.manage": "- Y - - -", // route /{class}/task/{id}: 2
  "notifications.list": "Y Y Y Y Y", // §6: the lists answer empty without the plugin
  "notifications.view": "Y Y Y Y Y", // route /notifications/rule/{id}: 1-4
  "notifications.edit": "Y Y Y Y -", // §6: operators view only
  "transports.edit": "Y Y - - -", // §6: assistants cannot change channels
  "transports.delete": "Y Y - - -", // §6: nor delete them
  "users.view": "Y Y Y Y -", // route /users: 1,2,3
  "users.create": "Y Y - - -", // §6: Add user only for superuser or admin
  "users.edit": "Y Y Y Y -", // §6: assistants edit operators only (see the target tests)
  "users.delete": "Y Y - - -", // §6: assistants cannot delete users
  "users.resetSecondFactor": "Y Y - - -", // issue 30: an admin resets a member's factor
  "users.limitTags": "Y Y - - -", // issue 30, ADR 041: managers limit people to tags
  "users.seePolicy": "Y Y - - -", // §2: policy column for superuser or admin with accounting
  "users.grantAnyPlugin": "Y - - - -",
  "users.anyDomain": "Y - - - -",
  "superusers.view": "Y - - - -", // route /superuser/{id}: 1
  "superusers.manage": "Y - - - -",
  "domains.view": "Y - - - -", // route /domain/{id}: 1
  "domains.manage": "Y - - - -", // route /domains/new: 1
  "policies.list": "Y Y - - -", // route /policy/{id}: 1,2
  "policies.view": "Y Y - - -",
  "policies.create": "Y - - - -", // §6: only the superuser sees Add policy
  "policies.edit": "Y Y - - -",
  "logs.view": "Y Y - - -",
  "software.view": "Y - - - -", // route /software: 1
  "software.manage": "Y - - - -",
  "rolloutOffers.view": "- Y - - -", // ADR 031: root's rollout offered to a domain, its admin decides
  "rolloutOffers.decide": "- Y - - -",
  "licenses.view": "Y - - - -", // route /license/new: 1
  "licenses.manage": "Y - - - -",
  "keychain.view": "Y Y Y Y Y",
  "jobs.view": "Y Y - - -", // dead jobs are seen and retried by a person: root all, an admin its domain's
  "jobs.retry": "Y Y - - -",
  "mqtt.stats": "Y - - - -",
  "apiTokens.view": "Y Y Y Y Y", // one's own tokens (ADR 040)
  "apiTokens.manage": "Y Y Y Y Y",
  "apiTokens.viewDomain": "- Y - - -", // the domain's tokens: its admins
  "apiTokens.revokeDomain": "- Y - - -",
};

const PLUGIN_OF: Partial<Record<PermissionAction, string>> = {
  "notifications.view": "notification",
  "notifications.edit": "notification",
  "transports.edit": "notification",
  "transports.delete": "notification",
  "users.seePolicy": "accounting",
  "policies.view": "accounting",
  "policies.create": "accounting",
  "policies.edit": "accounting",
  "keychain.view": "keychain",
};

const READS: PermissionAction[] = [
  "account.self",
  "accounting.view",
  "administration.view",
  "devices.view",
  "events.view",
  "commands.view",
  "commands.dryRun",
  "devices.importCheck",
  "commandTypes.view",
  "tunnels.view",
  "scripts.view",
  "packages.view",
  "firmwares.view",
  "templates.view",
  "zeroTouch.view",
  "files.view",
  "files.downloadBackups",
  "reports.view",
  "uptime.view",
  "settings.view",
  "crontab.view",
  "notifications.list",
  "notifications.view",
  "users.view",
  "users.seePolicy",
  "users.anyDomain",
  "superusers.view",
  "domains.view",
  "policies.list",
  "policies.view",
  "logs.view",
  "software.view",
  "rolloutOffers.view",
  "licenses.view",
  "keychain.view",
  "jobs.view",
  "mqtt.stats",
  "apiTokens.view",
  "apiTokens.viewDomain",
];

describe("the permission table against spec section 6", () => {
  it("has a row here for every action of the table", () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...PERMISSION_ACTIONS].sort());
  });

  describe.each(PERMISSION_ACTIONS)("%s", (action) => {
    it.each(SUBJECT_KINDS.map((kind, index) => [kind, index] as const))("as %s", (kind, index) => {
      const expected = EXPECTED[action].split(" ")[index] === "Y";
      expect(can(person(kind), action)).toBe(expected);
    });

    it("needs its plugin, and nothing else", () => {
      const plugin = PLUGIN_OF[action];
      for (const kind of SUBJECT_KINDS) {
        const withNone = person(kind, { plugins: [] });
        expect(can(withNone, action)).toBe(plugin === undefined && can(person(kind), action));
        if (plugin) expect(can(person(kind, { plugins: [plugin] }), action)).toBe(can(person(kind), action));
      }
    });

    it("refuses the demo user whatever saves, with the demo answer when its role may", () => {
      const demo = person("admin", { is_demo: true });
      const mayAsAdmin = can(person("admin"), action);
      if (READS.includes(action)) expect(decide(demo, action)).toBe(mayAsAdmin ? "allow" : "deny");
      else expect(decide(demo, action)).toBe(mayAsAdmin ? "demo" : "deny");
    });
  });

  it("offers the demo user what its role may do, and nothing more", () => {
    for (const action of PERMISSION_ACTIONS) {
      expect(mayOffer(person("admin", { is_demo: true }), action)).toBe(can(person("admin"), action));
      expect(mayOffer(person("operator"), action)).toBe(can(person("operator"), action));
    }
  });

  it("refuses anonymous callers everything", () => {
    for (const action of PERMISSION_ACTIONS) expect(can(null, action)).toBe(false);
  });
});

describe("target rules", () => {
  const roles: Role[] = [1, 2, 3, 4];

  it.each<[SubjectKind, boolean[]]>([
    ["superuser", [true, true, true, true]],
    ["admin", [false, true, true, true]],
    ["assistant", [false, false, false, true]],
    ["junior", [false, false, false, true]],
    ["operator", [false, false, false, false]],
  ])("%s edits users of roles 1-4: %j", (kind, expected) => {
    expect(roles.map((role) => can(person(kind), "users.edit", { role }))).toEqual(expected);
  });

  it("lets superusers create accounts of any role, admins of their domain's roles only", () => {
    expect(roles.map((role) => can(person("superuser"), "users.create", { role }))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(roles.map((role) => can(person("admin"), "users.create", { role }))).toEqual([
      false,
      true,
      true,
      true,
    ]);
    expect(roles.some((role) => can(person("assistant"), "users.create", { role }))).toBe(false);
  });

  it("lets only superusers and admins delete, and admins no superuser", () => {
    expect(roles.map((role) => can(person("superuser"), "users.delete", { role }))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(roles.map((role) => can(person("admin"), "users.delete", { role }))).toEqual([
      false,
      true,
      true,
      true,
    ]);
    expect(roles.some((role) => can(person("assistant"), "users.delete", { role }))).toBe(false);
  });

  it("lets superusers reset anyone's second factor and admins anyone's but a superuser's", () => {
    expect(roles.map((role) => can(person("superuser"), "users.resetSecondFactor", { role }))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(roles.map((role) => can(person("admin"), "users.resetSecondFactor", { role }))).toEqual([
      false,
      true,
      true,
      true,
    ]);
    expect(roles.some((role) => can(person("assistant"), "users.resetSecondFactor", { role }))).toBe(false);
    expect(decide(person("admin", { is_demo: true }), "users.resetSecondFactor", { role: 4 })).toBe("demo");
  });

  it("lets admins change their domain's policies but not global ones", () => {
    expect(can(person("admin"), "policies.edit", { domain_id: "d" })).toBe(true);
    expect(can(person("admin"), "policies.edit", { domain_id: null })).toBe(false);
    expect(can(person("superuser"), "policies.edit", { domain_id: null })).toBe(true);
    expect(can(person("admin", { plugins: [] }), "policies.edit", { domain_id: "d" })).toBe(false);
  });
});

describe("remote-access rules (issue 29)", () => {
  const party = (kind: SubjectKind, id = `author-${kind}`) => ({
    _id: id,
    role: ROLE_OF[kind],
    is_junior: kind === "junior",
  });
  it("approves a tunnel as a command: four eyes, a junior's by an assistant, an assistant's by an admin", () => {
    expect(can(person("admin"), "tunnels.approve", party("assistant"))).toBe(true);
    expect(can(person("assistant"), "tunnels.approve", party("assistant"))).toBe(false);
    expect(can(person("assistant"), "tunnels.approve", party("junior"))).toBe(true);
    expect(can(person("junior"), "tunnels.approve", party("junior"))).toBe(false);
    expect(can(person("admin"), "tunnels.approve", { ...party("admin"), _id: "id-admin" })).toBe(false);
    expect(can(person("assistant"), "tunnels.approve", { ...party("junior"), _id: "id-assistant" })).toBe(
      false,
    );
  });
  it("ends one's own session, and an admin anybody's", () => {
    expect(can(person("junior"), "tunnels.end", { ...party("junior"), _id: "id-junior" })).toBe(true);
    expect(can(person("assistant"), "tunnels.end", party("admin"))).toBe(false);
    expect(can(person("admin"), "tunnels.end", party("assistant"))).toBe(true);
    expect(can(person("operator"), "tunnels.end", { ...party("operator"), _id: "id-operator" })).toBe(false);
  });
});

describe("approval rules (spec sections 4 and 6)", () => {
  const party = (kind: SubjectKind, id = `id-${kind}`): ApprovalParty => ({
    _id: id,
    role: ROLE_OF[kind],
    is_junior: kind === "junior",
  });

  it("needs approval for everybody's action but an admin's", () => {
    expect(SUBJECT_KINDS.map((kind) => needsApproval(party(kind)))).toEqual([true, false, true, true, true]);
  });

  it.each<[SubjectKind, SubjectKind, boolean]>([
    ["admin", "junior", true],
    ["admin", "assistant", true],
    ["admin", "operator", true],
    ["admin", "admin", false], // an admin's action needs none
    ["assistant", "junior", true],
    ["assistant", "assistant", false],
    ["junior", "junior", false],
    ["junior", "assistant", false],
    ["operator", "junior", false],
    ["superuser", "junior", false],
  ])("%s approving a %s's action: %s", (approver, author, expected) => {
    expect(canApprove(person(approver), party(author, "someone-else"))).toBe(expected);
  });

  it.each<[SubjectKind, SubjectKind, boolean]>([
    ["admin", "admin", true], // admins are peers: an admin's command needs nobody's approval
    ["admin", "assistant", true],
    ["admin", "junior", true],
    ["assistant", "admin", false], // issue 27: an assistant cancelled an admin's command
    ["assistant", "assistant", false],
    ["assistant", "junior", true],
    ["junior", "admin", false],
    ["junior", "junior", false],
    ["operator", "junior", false],
    ["superuser", "junior", false],
  ])("%s cancelling a %s's command: %s", (canceller, author, expected) => {
    expect(canCancel(person(canceller), party(author, "someone-else"))).toBe(expected);
  });

  it("lets whoever may create a command cancel their own, and nobody else more than they could approve", () => {
    for (const kind of SUBJECT_KINDS) {
      const subject = person(kind);
      expect(canCancel(subject, subject)).toBe(can(subject, "commands.create"));
    }
  });

  const kinds = fc.constantFrom(...SUBJECT_KINDS);
  const subjects = fc.record({
    _id: fc.constantFrom("a", "b", "c"),
    kind: kinds,
    is_demo: fc.boolean(),
    plugins: fc.subarray([...PLUGINS]),
  });
  const toSubject = (s: { _id: string; kind: SubjectKind; is_demo: boolean; plugins: string[] }) =>
    person(s.kind, { _id: s._id, is_demo: s.is_demo, plugins: s.plugins });

  it("never lets anyone approve their own action", () => {
    fc.assert(
      fc.property(subjects, (s) => {
        const subject = toSubject(s);
        return !canApprove(subject, subject);
      }),
    );
  });

  it("never lets a junior assistant, an operator, a superuser or the demo user approve", () => {
    fc.assert(
      fc.property(subjects, subjects, (a, b) => {
        const approver = toSubject(a);
        const author = toSubject(b);
        const kind = kindOf(approver);
        const mayNever = kind === "junior" || kind === "operator" || kind === "superuser" || approver.is_demo;
        return !mayNever || !canApprove(approver, author);
      }),
    );
  });

  it("approves only what needs approval, and an assistant only a junior's", () => {
    fc.assert(
      fc.property(subjects, subjects, (a, b) => {
        const approver = toSubject(a);
        const author = toSubject(b);
        if (!canApprove(approver, author)) return true;
        return needsApproval(author) && (kindOf(approver) === "admin" || kindOf(author) === "junior");
      }),
    );
  });
});
