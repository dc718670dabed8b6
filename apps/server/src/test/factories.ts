import { randomBytes, randomUUID } from "node:crypto";
import {
  DEFAULT_DOMAIN_SETTINGS,
  DEFAULT_POLICY,
  hasNoDomain,
  PLUGINS,
  type Role,
  type SecurityPolicy,
  type SubjectKind,
} from "@cellfleet/contract";
import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import { hashPassword } from "../platform/auth/passwords";
import { type DomainRow, toJsonb } from "../platform/db/schema";
import type { TestApp } from "./test-app";

/** A name no other test uses. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(5).toString("hex")}`;
}

/** The settings column's part: the zone has its own column. */
function stored(settings: DomainRow["settings"]): DomainRow["settings"] {
  const { status, backup, journal } = settings;
  return { status, backup, journal };
}

/** Creates a domain of the test's own. */
export async function buildDomain(t: TestApp, overrides: Partial<DomainRow> = {}): Promise<DomainRow> {
  const row: DomainRow = {
    id: randomUUID(),
    name: uniqueName("domain"),
    full_name: "Test domain",
    tin: null,
    email: null,
    phone: null,
    manager: null,
    policy_id: null,
    device_limit: 0,
    is_demo: false,
    create_time: t.clock.now(),
    last_session: null,
    settings: DEFAULT_DOMAIN_SETTINGS,
    time_zone: DEFAULT_DOMAIN_SETTINGS.time_zone,
    ...overrides,
  };
  await t.db
    .insertInto("domains")
    .values({ ...row, settings: toJsonb(stored(row.settings)) })
    .execute();
  return row;
}

/** Creates a security policy (of a domain, or global with domainId null). */
export async function buildPolicy(
  t: TestApp,
  domainId: string | null,
  overrides: Partial<Omit<SecurityPolicy, "_id">> = {},
): Promise<string> {
  const policy = { ...DEFAULT_POLICY, name: uniqueName("policy"), is_default: false, ...overrides };
  const id = randomUUID();
  await t.db
    .insertInto("security_policies")
    .values({
      ...policy,
      id,
      domain_id: domainId,
      forbidden_sequences: toJsonb(policy.forbidden_sequences),
      forbidden_phrases: toJsonb(policy.forbidden_phrases),
      create_time: t.clock.now(),
    })
    .execute();
  return id;
}

export interface BuildUserOptions {
  role?: Role;
  /** The user's domain; a new one is made for roles 2-4 when not given. Superusers have none. */
  domainId?: string;
  username?: string;
  password?: string;
  fullName?: string;
  factoryPassword?: boolean;
  blocked?: boolean;
  isDemo?: boolean;
  /** A junior assistant (role 3), whose commands wait for approval. */
  isJunior?: boolean;
  policyId?: string | null;
  passwordChangedAt?: Date;
  passwordExpireDate?: Date | null;
  /** Limits the user to routers with one of these tags (ADR 041). */
  tagScope?: string[];
}

export interface BuiltUser {
  id: string;
  username: string;
  password: string;
  domainId: string | null;
  role: Role;
}

/** Creates a user who can sign in with the returned password (also recorded in the history). */
export async function buildUser(t: TestApp, options: BuildUserOptions = {}): Promise<BuiltUser> {
  const role = options.role ?? 2;
  const domainId = hasNoDomain(role) ? null : (options.domainId ?? (await buildDomain(t)).id);
  const password = options.password ?? `Pw-${randomBytes(6).toString("hex")}`;
  const passwordHash = await hashPassword(password);
  const now = t.clock.now();
  const id = randomUUID();
  const username = options.username ?? uniqueName("user");
  await t.db
    .insertInto("users")
    .values({
      id,
      domain_id: domainId,
      username,
      full_name: options.fullName ?? "",
      role,
      plugins: toJsonb(PLUGINS),
      password_hash: passwordHash,
      factory_password: options.factoryPassword ?? false,
      password_changed_at: options.passwordChangedAt ?? new Date(now.getTime() - 24 * 60 * 60 * 1000),
      password_expire_date: options.passwordExpireDate ?? null,
      blocked: options.blocked ?? false,
      is_demo: options.isDemo ?? false,
      is_junior: options.isJunior ?? false,
      policy_id: options.policyId ?? null,
      tag_scope: toJsonb(options.tagScope ?? []),
      create_time: now,
    })
    .execute();
  await t.db
    .insertInto("password_history")
    .values({ id: randomUUID(), user_id: id, password_hash: passwordHash, create_time: now })
    .execute();
  return { id, username, password, domainId, role };
}

/** Signs in through POST /api/login/ and answers the token. */
export async function signIn(
  app: FastifyInstance,
  user: { username: string; password: string },
): Promise<string> {
  const response = await app.inject({
    method: "POST",
    url: "/api/login/",
    payload: { username: user.username, password: user.password },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().token as string;
}

/** Signs in as the seeded read-only demo user. */
export async function signInDemo(app: FastifyInstance): Promise<string> {
  const response = await app.inject({ method: "POST", url: "/api/login/", payload: { demo: true } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().token as string;
}

/** One signed-in person of each kind the permission table names: the domain's admin, assistant, junior and operator, and a superuser. */
export async function signInEveryKind(t: TestApp, domainId: string): Promise<Record<SubjectKind, string>> {
  const person = async (options: BuildUserOptions) => signIn(t.app, await buildUser(t, options));
  return {
    admin: await person({ role: 2, domainId }),
    assistant: await person({ role: 3, domainId }),
    junior: await person({ role: 3, domainId, isJunior: true }),
    operator: await person({ role: 4, domainId }),
    superuser: await person({ role: 1 }),
  };
}
