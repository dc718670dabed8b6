import { DEFAULT_POLICY, PLUGINS, ROOT_USERNAME } from "@cellfleet/contract";
import type { Kysely } from "kysely";
import { hashPassword, hashUnusablePassword } from "../../platform/auth/passwords";
import { generatePassword } from "../../platform/auth/tokens";
import { domainsRepo } from "../../platform/db/domains.repo";
import { takeTransactionLock } from "../../platform/db/locks";
import { type DB, toJsonb } from "../../platform/db/schema";
import { policiesRepo } from "../policies/policies.repo";
import { usersRepo } from "../users/users.repo";

export const DEMO_DOMAIN_NAME = "demo";
export const DEMO_USERNAME = "demo";

export interface FirstStartOptions {
  /** CELLFLEET_ROOT_PASSWORD; when absent a random one is generated. */
  rootPassword?: string;
  now: () => Date;
  /** Where the generated root password is announced (warn level, once). */
  log: { warn: (message: string) => void };
}

export interface FirstStartResult {
  isRootCreated: boolean;
  isDemoCreated: boolean;
  /** The generated root password, when one was generated on this call. */
  generatedRootPassword?: string;
}

/**
 * Creates what a fresh installation needs: the default security policy, the root superuser
 * (factory password) and the demo domain with its read-only user. Idempotent: anything that
 * exists is left as it is, so later starts never overwrite a user.
 */
export async function runFirstStart(db: Kysely<DB>, options: FirstStartOptions): Promise<FirstStartResult> {
  const now = options.now();
  const result: FirstStartResult = { isRootCreated: false, isDemoCreated: false };
  // Hash outside the transaction: argon2 is slow and the transaction should stay short.
  const generated = options.rootPassword === undefined ? generatePassword(16) : undefined;
  const rootHash = await hashPassword(options.rootPassword ?? generated ?? "");
  const demoHash = await hashUnusablePassword();

  await db.transaction().execute(async (trx) => {
    await takeTransactionLock(trx, "cellfleet:first-start");
    const policies = policiesRepo(trx);
    if (!(await policies.findDefaultPolicy())) await policies.insertPolicy(null, DEFAULT_POLICY, now);

    const users = usersRepo(trx);
    if (!(await users.findUserWithPasswordHashByUsernameAcrossDomains(ROOT_USERNAME))) {
      const rootId = await users.insertUser(null, {
        username: ROOT_USERNAME,
        full_name: "Root",
        role: 1,
        plugins: toJsonb(PLUGINS),
        password_hash: rootHash,
        factory_password: true,
        password_changed_at: now,
        create_time: now,
      });
      await users.addPasswordHistory(null, rootId, rootHash, now);
      result.isRootCreated = true;
      result.generatedRootPassword = generated;
    }

    const domains = domainsRepo(trx);
    const demoDomain = await domains.findDomainByNameAcrossDomains(DEMO_DOMAIN_NAME);
    const demoDomainId =
      demoDomain?.id ??
      (await domains.insertDomain({
        name: DEMO_DOMAIN_NAME,
        full_name: "Demo",
        is_demo: true,
        create_time: now,
      }));
    if (!(await users.findUserWithPasswordHashByUsernameAcrossDomains(DEMO_USERNAME))) {
      await users.insertUser(demoDomainId, {
        username: DEMO_USERNAME,
        full_name: "Demo",
        role: 2,
        is_demo: true,
        plugins: toJsonb(PLUGINS),
        password_hash: demoHash,
        factory_password: false,
        password_changed_at: now,
        create_time: now,
      });
      result.isDemoCreated = true;
    }
  });

  if (result.generatedRootPassword !== undefined) {
    options.log.warn(`root factory password: ${result.generatedRootPassword}`);
  }
  return result;
}
