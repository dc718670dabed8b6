import { PERMISSIONS, type PermissionAction, type PermissionRule } from "./permission-rows";
import { kindOf, type PermissionSubject, type SubjectKind } from "./permission-subjects";
import type { Role } from "./roles";

// The one permission table of spec sections 1, 2 and 6. Server guards, service checks, the web's
// menus, buttons and forms, and the role-matrix tests all ask `can` here; no role number is
// compared anywhere else (docs/adr/009-one-permission-table.md).

export {
  isPermissionAction,
  PERMISSION_ACTIONS,
  PERMISSIONS,
  type PermissionAction,
  type PermissionRule,
} from "./permission-rows";
export { kindOf, type PermissionSubject, SUBJECT_KINDS, type SubjectKind } from "./permission-subjects";

/** One side of an approval: the author of an action, or the person who approves it. */
export interface ApprovalParty {
  readonly _id: string;
  readonly role: Role;
  readonly is_junior: boolean;
}

/** What the target-dependent actions are asked about. */
export interface PermissionTargets {
  /** The role of the account being created. */
  "users.create": { readonly role: Role };
  /** The user being edited: its role (a role being given is asked about the same way). */
  "users.edit": { readonly role: Role };
  "users.delete": { readonly role: Role };
  "users.resetSecondFactor": { readonly role: Role };
  /** The author of the command. */
  "commands.approve": ApprovalParty;
  /** The author of the command being cancelled. */
  "commands.cancel": ApprovalParty;
  /** The author of the tunnel request. */
  "tunnels.approve": ApprovalParty;
  /** The author of the tunnel session being ended. */
  "tunnels.end": ApprovalParty;
  /** The policy's domain: null for a global policy. */
  "policies.edit": { readonly domain_id: string | null };
}

/** The target of an action: its PermissionTargets entry, or nothing. */
export type PermissionTargetOf<A extends PermissionAction> = A extends keyof PermissionTargets
  ? PermissionTargets[A]
  : never;

/** Superusers edit anyone, admins everyone but superusers, assistants only operators (spec section 6). */
function mayEditUserOfRole(subject: PermissionSubject, target: { readonly role: Role }): boolean {
  const kind = kindOf(subject);
  const targetKind = kindOf({ role: target.role });
  if (kind === "superuser") return true;
  if (kind === "admin") return targetKind !== "superuser";
  return targetKind === "operator";
}

const TARGET_RULES: {
  [A in keyof PermissionTargets]: (s: PermissionSubject, t: PermissionTargets[A]) => boolean;
} = {
  "users.create": mayEditUserOfRole,
  "users.edit": mayEditUserOfRole,
  "users.delete": mayEditUserOfRole,
  "users.resetSecondFactor": mayEditUserOfRole,
  "commands.approve": (approver, author) => {
    if (approver._id === author._id || !needsApproval(author)) return false;
    // An assistant's action needs an admin; only a junior assistant's may an assistant approve.
    return kindOf(approver) === "admin" || kindOf(author) === "junior";
  },
  // One's own command anyone who may create one cancels; another's only who could approve it, and an
  // admin another admin's (an admin's command needs no approval, so no one else decides on it).
  "commands.cancel": (subject, author) =>
    subject._id === author._id ||
    can(subject, "commands.approve", author) ||
    (kindOf(subject) === "admin" && kindOf(author) === "admin"),
  "tunnels.approve": (approver, author) => can(approver, "commands.approve", author),
  // One's own session anyone ends; an admin ends anybody's ("end now" in the list of sessions).
  "tunnels.end": (subject, author) => subject._id === author._id || kindOf(subject) === "admin",
  // Admins change their domain's own policies; global ones (the default among them) only superusers.
  "policies.edit": (subject, policy) => kindOf(subject) === "superuser" || policy.domain_id !== null,
};

/** The answer of the table: allowed, refused, or refused because the demo user never saves. */
export type PermissionDecision = "allow" | "deny" | "demo";

/**
 * The table's answer for a subject, an action and (for target-dependent actions) its target.
 * Without a target a target-dependent action answers whether the subject may do it to someone.
 * The demo refusal comes last, so the demo user hears 'demo' only for what its role may do.
 */
export function decide<A extends PermissionAction>(
  subject: PermissionSubject | null,
  action: A,
  target?: PermissionTargetOf<A>,
): PermissionDecision {
  if (subject === null) return "deny";
  const rule: PermissionRule = PERMISSIONS[action];
  if (!rule.who.includes(kindOf(subject))) return "deny";
  if (rule.plugin !== undefined && !subject.plugins.includes(rule.plugin)) return "deny";
  if (subject.grants !== undefined && (rule.byToken === false || !subject.grants.includes(action)))
    return "deny";
  if (rule.wholeDomain && subject.is_tag_limited) return "deny";
  if (target !== undefined && Object.hasOwn(TARGET_RULES, action)) {
    const check = TARGET_RULES[action as keyof PermissionTargets] as (
      s: PermissionSubject,
      t: PermissionTargetOf<A>,
    ) => boolean;
    if (!check(subject, target)) return "deny";
  }
  return rule.saves && subject.is_demo ? "demo" : "allow";
}

/** May this subject do this action (to this target)? Anonymous callers may do nothing. */
export function can<A extends PermissionAction>(
  subject: PermissionSubject | null,
  action: A,
  target?: PermissionTargetOf<A>,
): boolean {
  return decide(subject, action, target) === "allow";
}

/**
 * Whether the interface offers the action (a menu entry, a button, an editable form): what `can`
 * allows, and also to the demo user what its role could do, so the demo shows the product and the
 * server's DEMO_PERMISSIONS_DENIED tells the visitor that saving is off (spec section 4).
 */
export function mayOffer<A extends PermissionAction>(
  subject: PermissionSubject | null,
  action: A,
  target?: PermissionTargetOf<A>,
): boolean {
  return decide(subject, action, target) !== "deny";
}

/** Whether the table marks the action as saving (the demo user is refused it). */
export function isSavingAction(action: PermissionAction): boolean {
  return PERMISSIONS[action].saves;
}

/** The kinds of people the table lets do an action (with every plugin, not in demo). */
export function kindsAllowed(action: PermissionAction): SubjectKind[] {
  return [...PERMISSIONS[action].who];
}

/** The role numbers whose plain (non-junior) members may do an action: for role-keyed route data. */
export function rolesAllowed(action: PermissionAction): Role[] {
  const rule: PermissionRule = PERMISSIONS[action];
  return ([1, 2, 3, 4] as const).filter((role) => rule.who.includes(kindOf({ role })));
}

/**
 * Whether an action by this author needs approval before it runs (spec sections 4 and 6):
 * everybody's but an admin's (operators cannot create commands at all).
 */
export function needsApproval(author: Pick<ApprovalParty, "role" | "is_junior">): boolean {
  return kindOf(author) !== "admin";
}

/**
 * Whether `approver` may approve an action of `author`: a junior assistant's by an assistant or
 * an admin, an assistant's by an admin; never one's own, never a junior's or an operator's approval.
 */
export function canApprove(approver: PermissionSubject, author: ApprovalParty): boolean {
  return can(approver, "commands.approve", author);
}

/**
 * Whether `subject` may cancel a command of `author`: their own, or one they could approve (four
 * eyes), or, for an admin, another admin's; never an assistant an admin's, nor a junior anybody's.
 */
export function canCancel(subject: PermissionSubject, author: ApprovalParty): boolean {
  return can(subject, "commands.cancel", author);
}

/** A kind of person who may approve an action: only administrators and assistants ever do. */
export type ApproverKind = Extract<SubjectKind, "admin" | "assistant">;

/** The kinds of people who may approve an action of this author: none when it needs no approval. */
export function approverKinds(author: Pick<ApprovalParty, "role" | "is_junior">): ApproverKind[] {
  const roles: Record<ApproverKind, Role> = { admin: 2, assistant: 3 };
  const isApproverKind = (kind: SubjectKind): kind is ApproverKind => kind in roles;
  return PERMISSIONS["commands.approve"].who.filter(isApproverKind).filter((kind) => {
    const probe = { _id: "", role: roles[kind], is_junior: false, is_demo: false, plugins: [] };
    return canApprove(probe, { ...author, _id: "author" });
  });
}
