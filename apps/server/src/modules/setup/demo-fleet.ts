import { randomUUID } from "node:crypto";
import { DEFAULT_FLEET_SECRET, deriveFleetKey, Fleet, fleetIdent } from "@cellfleet/simulator";
import type { Kysely } from "kysely";
import { domainsRepo } from "../../platform/db/domains.repo";
import { type DB, toJsonb } from "../../platform/db/schema";
import { DEMO_DOMAIN_NAME } from "./first-start";

/** Ident prefix of the demo fleet: SIM000001, SIM000002, … */
export const DEMO_FLEET_PREFIX = "SIM";

/**
 * Makes sure the demo domain holds `count` simulated devices (SIM000001…) with the keys the
 * simulator derives from its default fleet secret. Idempotent; an ident already taken is left alone.
 */
export async function seedDemoFleet(db: Kysely<DB>, count: number): Promise<number> {
  const domain = await domainsRepo(db).findDomainByNameAcrossDomains(DEMO_DOMAIN_NAME);
  if (!domain) throw new Error("the demo domain is missing (first start did not run)");
  const rows = [];
  for (let index = 1; index <= count; index++) {
    const ident = fleetIdent(DEMO_FLEET_PREFIX, index);
    rows.push({
      id: randomUUID(),
      domain_id: domain.id,
      ident,
      aes_key: await deriveFleetKey(DEFAULT_FLEET_SECRET, ident),
      description: "Simulated router",
      tags: toJsonb(["demo", "simulated"]),
      meta: toJsonb({ simulated: true }),
    });
  }
  let inserted = 0;
  for (let i = 0; i < rows.length; i += 1000) {
    const result = await db
      .insertInto("devices")
      .values(rows.slice(i, i + 1000))
      .onConflict((oc) => oc.column("ident").doNothing())
      .executeTakeFirst();
    inserted += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return inserted;
}

/** Starts `count` simulated routers in-process against the gateway at `url`. */
export async function startDemoFleet(url: string, count: number): Promise<Fleet> {
  const fleet = new Fleet({
    url,
    devices: count,
    prefix: DEMO_FLEET_PREFIX,
    keys: { kind: "secret", secret: DEFAULT_FLEET_SECRET },
  });
  await fleet.start();
  return fleet;
}
