import {
  type AccountingUser,
  type CreateAccountingUser,
  type CreateManager,
  can,
  checkPassword,
  defaultPluginsFor,
  hasNoDomain,
  mayBeJunior,
  mayHaveTagScope,
  type Plugin,
  Role,
  type UpdateManager,
  usesAdminPasswordRules,
} from "@cellfleet/contract";
import { hashPassword } from "../../platform/auth/passwords";
import { assertCan, assertNotApiToken, subjectOf, tagScopeOf } from "../../platform/auth/permissions";
import { hasPlugin } from "../../platform/auth/plugins";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { domainsRepo } from "../../platform/db/domains.repo";
import { toJsonb, type UserUpdate } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { policiesRepo } from "../policies/policies.repo";
import { findEffectivePolicy } from "../policies/policies.service";
import { type AccountingUserRow, accountingUsersRepo } from "./accounting-users.repo";
import { applyPasswordChange, assertAcceptablePassword, preparePassword } from "./password.service";
import { usersRepo } from "./users.repo";
import { assertOwnPasswordChangeAllowed, computePasswordExpiry } from "./users.rules";
import { assertNotDemoUser, findVisibleUser, presentUser } from "./users.service";

/** The fields of a new account, whichever screen creates it. */
export interface NewAccount {
  username: string;
  full_name: string;
  role: Role;
  is_junior?: boolean;
  email: string | null;
  phone: string | null;
  policy_id: string | null;
  plugins?: Plugin[];
  tag_scope?: string[];
  password: string;
}

/** The fields a change may carry. */
export interface AccountChanges {
  username?: string;
  full_name?: string;
  role?: Role;
  is_junior?: boolean;
  email?: string | null;
  phone?: string | null;
  policy_id?: string | null;
  plugins?: Plugin[];
  tag_scope?: string[];
  password?: string;
  blocked?: boolean;
}

/**
 * The tag scope a change or a new account ends with (ADR 041): only managers choose one, and only
 * for roles that may have one; a person limited to tags hands on their own limit to people they
 * create. A role that may not have a scope loses it.
 */
function checkTagScope(session: SessionContext, role: Role, chosen: string[] | undefined, current: string[]) {
  if (chosen !== undefined && !sameTags(chosen, current)) {
    assertCan(session, "users.limitTags");
    if (chosen.length > 0 && !mayHaveTagScope(role)) {
      throw new AppError(
        "BAD_REQUEST",
        "tag_scope: only assistants, juniors and operators can be limited to tags",
      );
    }
  }
  return mayHaveTagScope(role) ? (chosen ?? current) : [];
}

function sameTags(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((tag) => b.includes(tag));
}

/**
 * A caller limited to tags (in person or by the token) creates and changes only people limited
 * within those tags, so no account they set a password for opens a wider view (ADR 041).
 */
function assertWithinOwnTagScope(session: SessionContext, targetScope: readonly string[]) {
  const own = tagScopeOf(session);
  if (own.length === 0) return;
  const isWithin =
    targetScope.length > 0 && own.every((anyOf) => targetScope.every((tag) => anyOf.includes(tag)));
  if (!isWithin) throw new AppError("PERMISSION_DENIED", "This user reaches routers beyond your tags");
}

/** Admins grant only plugins they have; superusers any. New admins and superusers get all by default. */
function checkPlugins(session: SessionContext, plugins: Plugin[] | undefined, role: Role): Plugin[] {
  const chosen = plugins ?? defaultPluginsFor(role);
  const mayGrantAny = can(subjectOf(session), "users.grantAnyPlugin");
  if (!mayGrantAny && chosen.some((plugin) => !hasPlugin(session, plugin))) {
    throw new AppError("PERMISSION_DENIED", "You can grant only plugins you have");
  }
  return [...new Set(chosen)];
}

async function checkUnique(
  ctx: AppContext,
  username: string | undefined,
  email: string | null | undefined,
  exceptId?: string,
) {
  const users = accountingUsersRepo(ctx.db);
  if (username !== undefined && (await users.isUsernameTakenAcrossDomains(username, exceptId))) {
    throw new AppError("USERNAME_EXISTED", "The username is taken");
  }
  if (email && (await users.isEmailTakenAcrossDomains(email, exceptId))) {
    throw new AppError("USER_ALREADY_EXIST", "A user with this e-mail exists");
  }
}

async function checkPolicy(ctx: AppContext, domainId: string | null, policyId: string | null | undefined) {
  if (!policyId) return;
  if (!(await policiesRepo(ctx.db).findUsablePolicy(domainId, policyId))) {
    throw new AppError("BAD_REQUEST", "policy_id: no such policy for this domain");
  }
}

/**
 * Creates an account in `domainId` (null: a superuser). The table says who adds accounts of which
 * role; only superusers name another domain than their own. The password is a factory password.
 */
export async function createAccount(
  ctx: AppContext,
  session: SessionContext,
  domainId: string | null,
  account: NewAccount,
): Promise<AccountingUserRow> {
  if (hasNoDomain(account.role) !== (domainId === null))
    throw new AppError("BAD_REQUEST", "domain_id: superusers have no domain, others need one");
  assertCan(session, "users.create", { role: account.role });
  if (domainId !== session.domainId && !can(subjectOf(session), "users.anyDomain")) {
    throw new AppError("PERMISSION_DENIED", "Access denied");
  }
  if (domainId !== null && !(await domainsRepo(ctx.db).findDomain(domainId))) {
    throw new AppError("DOMAIN_NOT_FOUND", "No such domain");
  }
  if (account.is_junior && !mayBeJunior(account.role))
    throw new AppError("BAD_REQUEST", "is_junior: only for role 3");
  const plugins = checkPlugins(session, account.plugins, account.role);
  const tagScope = checkTagScope(session, account.role, account.tag_scope, session.user.tag_scope);
  assertWithinOwnTagScope(session, tagScope);
  await checkUnique(ctx, account.username, account.email);
  await checkPolicy(ctx, domainId, account.policy_id);
  const domain = domainId ? await domainsRepo(ctx.db).findDomain(domainId) : undefined;
  const policy = await findEffectivePolicy(ctx.db, {
    domain_id: domainId,
    policy_id: account.policy_id,
    domain_policy_id: domain?.policy_id ?? null,
  });
  const broken = checkPassword(account.password, policy, { isAdmin: usesAdminPasswordRules(account.role) });
  if (broken) throw new AppError(broken);
  const now = ctx.now();
  const passwordHash = await hashPassword(account.password);
  const id = await ctx.db.transaction().execute(async (trx) => {
    const users = usersRepo(trx);
    const newId = await users.insertUser(domainId, {
      username: account.username,
      full_name: account.full_name,
      role: account.role,
      is_junior: account.is_junior ?? false,
      email: account.email,
      phone: account.phone,
      plugins: toJsonb(plugins),
      tag_scope: toJsonb(tagScope),
      password_hash: passwordHash,
      factory_password: true,
      password_changed_at: now,
      password_expire_date: computePasswordExpiry(policy, account.role, now),
      policy_id: account.policy_id,
      create_time: now,
    });
    await users.addPasswordHistory(domainId, newId, passwordHash, now);
    return newId;
  });
  const row = await accountingUsersRepo(ctx.db).findAccountingUser(domainId, id);
  if (!row) throw new AppError("WRITE_DATA_FAILED");
  return row;
}

/**
 * Changes an account. Superusers change anyone; admins anyone of their domain but superusers;
 * helpers only operators, and their own password. A password set for someone else is a factory
 * password; `blocked: false` lifts every block.
 */
export async function updateAccount(
  ctx: AppContext,
  session: SessionContext,
  userId: string,
  changes: AccountChanges,
  expectedRole?: Role,
): Promise<AccountingUserRow> {
  const target = await findVisibleUser(ctx, session, userId);
  assertNotDemoUser(target);
  if (expectedRole !== undefined && target.role !== expectedRole)
    throw new AppError("USER_NOT_FOUND", "No such user");
  const isSelf = target.id === session.user.id;
  const onlyPassword = Object.keys(changes).every((key) => key === "password");
  // Anyone may change their own password; anything else needs the table's leave for the target's role.
  if (!(isSelf && onlyPassword)) {
    assertCan(session, "users.edit", { role: target.role as Role });
    assertWithinOwnTagScope(session, target.tag_scope);
  }
  const role = changes.role ?? (target.role as Role);
  if (changes.role !== undefined) {
    const subject = subjectOf(session);
    if (!can(subject, "users.edit", { role }) || hasNoDomain(role) !== hasNoDomain(target.role as Role)) {
      throw new AppError("PERMISSION_DENIED", "This role cannot be given here");
    }
  }
  const isJunior =
    changes.is_junior ?? (changes.role !== undefined && !mayBeJunior(role) ? false : target.is_junior);
  if (isJunior && !mayBeJunior(role)) throw new AppError("BAD_REQUEST", "is_junior: only for role 3");
  if (isSelf && (changes.blocked === true || changes.role !== undefined)) {
    throw new AppError("PERMISSION_DENIED", "You cannot block yourself or change your own role");
  }
  await checkUnique(ctx, changes.username, changes.email, target.id);
  await checkPolicy(ctx, target.domain_id, changes.policy_id);

  const columns: UserUpdate = {};
  for (const key of ["username", "full_name", "email", "phone", "policy_id"] as const) {
    if (changes[key] !== undefined) Object.assign(columns, { [key]: changes[key] });
  }
  if (changes.role !== undefined) columns.role = role;
  columns.is_junior = isJunior;
  if (changes.plugins !== undefined) columns.plugins = toJsonb(checkPlugins(session, changes.plugins, role));
  const tagScope = checkTagScope(session, role, changes.tag_scope, target.tag_scope);
  if (!sameTags(tagScope, target.tag_scope)) {
    assertWithinOwnTagScope(session, tagScope);
    columns.tag_scope = toJsonb(tagScope);
  }
  if (changes.blocked === true) Object.assign(columns, { blocked: true, block_reason: "manual" });
  if (changes.blocked === false) {
    Object.assign(columns, {
      blocked: false,
      block_reason: null,
      blocked_until: null,
      failed_attempts: 0,
      untrusted_blocked: false,
    });
  }

  if (changes.password !== undefined) {
    assertNotApiToken(session, "change passwords");
    const now = ctx.now();
    if (isSelf) assertOwnPasswordChangeAllowed(target, now);
    const withChanges = { ...target, policy_id: changes.policy_id ?? target.policy_id };
    const policy = await assertAcceptablePassword(ctx, withChanges, changes.password, { role });
    const change = await preparePassword(policy, role, changes.password, now, !isSelf);
    // An expiry block ends with a new password; a manual or attempts block waits for `blocked: false`.
    if (target.block_reason === "expired" || target.block_reason === "reset") {
      Object.assign(columns, { blocked: false, block_reason: null });
    }
    await applyPasswordChange(ctx, target, change, columns);
  } else {
    await usersRepo(ctx.db).updateUser(target.domain_id, target.id, columns);
  }
  if (changes.blocked === true) await ctx.hooks.get("users.endSessions")(target);
  // An unblock lifts every block sign-in set: the account's and each of its browsers' (ADR 016).
  if (changes.blocked === false) await ctx.hooks.get("users.unblocked")(target.id);
  return findVisibleUser(ctx, session, target.id);
}

/**
 * POST /api/user/new: a superuser names the new user's domain (none for a new superuser); anyone
 * else creates users in their own domain.
 */
export async function createUser(
  ctx: AppContext,
  session: SessionContext,
  body: CreateAccountingUser,
): Promise<AccountingUser> {
  const { domain_id: named, ...account } = body;
  const mayNameDomain = can(subjectOf(session), "users.anyDomain");
  const domainId = hasNoDomain(account.role) ? null : mayNameDomain ? (named ?? null) : session.domainId;
  return presentUser(ctx, session, await createAccount(ctx, session, domainId, account));
}

/** POST /api/user/{user_id} with fields. */
export async function changeUser(
  ctx: AppContext,
  session: SessionContext,
  userId: string,
  changes: AccountChanges,
): Promise<AccountingUser> {
  return presentUser(ctx, session, await updateAccount(ctx, session, userId, changes));
}

/** POST /api/superuser/new. */
export async function createSuperuser(
  ctx: AppContext,
  session: SessionContext,
  body: CreateManager,
): Promise<AccountingUser> {
  const row = await createAccount(ctx, session, null, { ...body, role: Role.Superuser });
  return presentUser(ctx, session, row);
}

/** POST /api/superuser/{user_id} with fields: USER_NOT_FOUND for anyone but a superuser. */
export async function changeSuperuser(
  ctx: AppContext,
  session: SessionContext,
  userId: string,
  changes: UpdateManager,
): Promise<AccountingUser> {
  return presentUser(ctx, session, await updateAccount(ctx, session, userId, changes, Role.Superuser));
}
