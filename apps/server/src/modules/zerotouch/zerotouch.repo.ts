import type { AdoptionStatus } from "@cellfleet/contract";
import type { Insertable, Kysely, Selectable, Updateable } from "kysely";
import type { DB } from "../../platform/db/schema";
import type { ZeroTouchAdoptionsTable, ZeroTouchConfigsTable } from "../../platform/db/schema-zerotouch";

export type ZeroTouchConfigRow = Selectable<ZeroTouchConfigsTable> & { template_name: string | null };
export type AdoptionRow = Selectable<ZeroTouchAdoptionsTable> & { config_name: string | null };
type NewConfig = Omit<Insertable<ZeroTouchConfigsTable>, "domain_id">;
type ConfigChanges = Omit<Updateable<ZeroTouchConfigsTable>, "id" | "domain_id" | "key_id">;

/** Zero-touch configurations and the adoption list (Kysely only). */
export function zeroTouchRepo(db: Kysely<DB>) {
  const configs = () =>
    db
      .selectFrom("zero_touch_configs as c")
      .leftJoin("scripts as s", (join) =>
        join
          .onRef("s.id", "=", "c.template_id")
          .onRef("s.domain_id", "=", "c.domain_id")
          .on("s.deleted", "=", false),
      )
      .selectAll("c")
      .select("s.name as template_name");
  const adoptions = () =>
    db
      .selectFrom("zero_touch_adoptions as a")
      .leftJoin("zero_touch_configs as c", "c.id", "a.config_id")
      .selectAll("a")
      .select("c.name as config_name");
  return {
    async listConfigs(domainId: string): Promise<ZeroTouchConfigRow[]> {
      return configs().where("c.domain_id", "=", domainId).orderBy("c.name").execute();
    },

    async findConfig(domainId: string, id: string): Promise<ZeroTouchConfigRow | undefined> {
      return configs().where("c.domain_id", "=", domainId).where("c.id", "=", id).executeTakeFirst();
    },

    /** The configuration a router's user name names: before anyone knows the domain. */
    async findConfigByKeyIdAcrossDomains(keyId: string): Promise<ZeroTouchConfigRow | undefined> {
      return configs().where("c.key_id", "=", keyId).executeTakeFirst();
    },

    async insertConfig(domainId: string, row: NewConfig): Promise<void> {
      await db
        .insertInto("zero_touch_configs")
        .values({ ...row, domain_id: domainId })
        .execute();
    },

    async updateConfig(domainId: string, id: string, changes: ConfigChanges): Promise<boolean> {
      const result = await db
        .updateTable("zero_touch_configs")
        .set(changes)
        .where("domain_id", "=", domainId)
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async deleteConfig(domainId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom("zero_touch_configs")
        .where("domain_id", "=", domainId)
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async countJoined(domainId: string, id: string): Promise<void> {
      await db
        .updateTable("zero_touch_configs")
        .set((eb) => ({ joined: eb("joined", "+", 1) }))
        .where("domain_id", "=", domainId)
        .where("id", "=", id)
        .execute();
    },

    async listAdoptions(domainId: string, status: AdoptionStatus | "all"): Promise<AdoptionRow[]> {
      let query = adoptions().where("a.domain_id", "=", domainId);
      if (status !== "all") query = query.where("a.status", "=", status);
      return query.orderBy("a.last_seen", "desc").limit(1000).execute();
    },

    async findAdoption(domainId: string, id: string): Promise<AdoptionRow | undefined> {
      return adoptions().where("a.domain_id", "=", domainId).where("a.id", "=", id).executeTakeFirst();
    },

    /** Locks an adoption row for a decision, so two admins deciding at once decide one after the other. */
    async lockAdoption(
      domainId: string,
      id: string,
    ): Promise<Selectable<ZeroTouchAdoptionsTable> | undefined> {
      return db
        .selectFrom("zero_touch_adoptions")
        .selectAll()
        .where("domain_id", "=", domainId)
        .where("id", "=", id)
        .forUpdate()
        .executeTakeFirst();
    },

    /** The adoption row of a router ident, wherever it waits: a router knows no domain when it connects. */
    async findAdoptionByIdentAcrossDomains(
      ident: string,
    ): Promise<Selectable<ZeroTouchAdoptionsTable> | undefined> {
      return db.selectFrom("zero_touch_adoptions").selectAll().where("ident", "=", ident).executeTakeFirst();
    },

    /**
     * A router that presented a valid zero-touch credential its configuration did not match: a new
     * row in the domain's list, or one more attempt of the row it has (a decided row keeps its status).
     */
    async recordAttempt(
      domainId: string,
      row: Omit<Insertable<ZeroTouchAdoptionsTable>, "domain_id">,
    ): Promise<void> {
      await db
        .insertInto("zero_touch_adoptions")
        .values({ ...row, domain_id: domainId })
        .onConflict((oc) =>
          oc.column("ident").doUpdateSet((eb) => ({
            attempts: eb("zero_touch_adoptions.attempts", "+", 1),
            last_seen: eb.ref("excluded.last_seen"),
            address: eb.ref("excluded.address"),
            model: eb.ref("excluded.model"),
            serial: eb.ref("excluded.serial"),
            imei: eb.ref("excluded.imei"),
          })),
        )
        .execute();
    },

    async decideAdoption(
      domainId: string,
      id: string,
      changes: Pick<
        Updateable<ZeroTouchAdoptionsTable>,
        "status" | "decided_by" | "decided_time" | "device_id"
      >,
    ): Promise<void> {
      await db
        .updateTable("zero_touch_adoptions")
        .set(changes)
        .where("domain_id", "=", domainId)
        .where("id", "=", id)
        .execute();
    },

    /** A router's existing device row (idents are unique across the installation). */
    async findDeviceByIdentAcrossDomains(
      ident: string,
    ): Promise<{ id: string; domain_id: string; aes_key: string | null } | undefined> {
      return db
        .selectFrom("devices")
        .select(["id", "domain_id", "aes_key"])
        .where("ident", "=", ident)
        .executeTakeFirst();
    },
  };
}
