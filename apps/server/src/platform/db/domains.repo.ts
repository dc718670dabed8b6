import { randomUUID } from "node:crypto";
import type { Kysely, Updateable } from "kysely";
import type { DB, DomainRow, DomainsTable, NewDomainRow } from "./schema";

/**
 * Domains (tenants): the row every feature's data hangs from, so it sits on the floor where users and
 * policies check a domain exists. A domain's own row is addressed by its id; lookups by name span all domains.
 */
export function domainsRepo(db: Kysely<DB>) {
  return {
    async findDomain(domainId: string): Promise<DomainRow | undefined> {
      return db.selectFrom("domains").selectAll().where("id", "=", domainId).executeTakeFirst();
    },

    /** Domain names are unique across the installation. */
    async findDomainByNameAcrossDomains(name: string): Promise<DomainRow | undefined> {
      return db.selectFrom("domains").selectAll().where("name", "=", name).executeTakeFirst();
    },

    async insertDomain(domain: Omit<NewDomainRow, "id">): Promise<string> {
      const id = randomUUID();
      await db
        .insertInto("domains")
        .values({ ...domain, id })
        .execute();
      return id;
    },

    /** Notes that someone of the domain signed in. */
    async recordDomainSession(domainId: string, at: Date): Promise<void> {
      await db.updateTable("domains").set({ last_session: at }).where("id", "=", domainId).execute();
    },

    /** Changes a domain's own fields. */
    async updateDomain(domainId: string, changes: Updateable<DomainsTable>): Promise<void> {
      await db.updateTable("domains").set(changes).where("id", "=", domainId).execute();
    },
  };
}
