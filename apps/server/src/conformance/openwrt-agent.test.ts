import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ActionsFixture, openActionsFixture } from "../modules/actions/actions.test-support";
import { eventually, type TestDevice } from "../modules/ingest/ingest.test-support";
import { type OpenWrtRouter, openWrtAgentDriver } from "./openwrt-agent.driver";

// The OpenWrt agent end to end: BusyBox ash, jq, mosquitto_sub/mosquitto_pub and openssl against a
// console with its embedded broker. Only the OpenWrt-only programs are stand-ins
// (agents/openwrt/test/standins), printing recorded outputs of real routers' programs.

/** Proportional resident memory (kB) of every process in a process group: shared libraries split. */
function groupPss(pgid: number): number {
  let total = 0;
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue;
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
      total += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

describe("the OpenWrt agent against a console", { timeout: 60_000 }, () => {
  let f: ActionsFixture;
  let device: TestDevice;
  let router: OpenWrtRouter;

  beforeAll(async () => {
    f = await openActionsFixture();
    device = await f.device();
    router = await openWrtAgentDriver().start(
      { mqttUrl: f.ingest.gateway.url, publicUrl: f.t.config.publicUrl },
      { kind: "key", ident: device.ident, key: device.key as string },
    );
  }, 60_000);
  afterAll(async () => {
    await router?.stop();
    await f?.close();
  }, 60_000);

  const collect = async (type: string) =>
    (
      await f.t.db
        .selectFrom("device_collects")
        .select("data")
        .where("device_id", "=", device.id)
        .where("type", "=", type)
        .executeTakeFirst()
    )?.data as Record<string, unknown> | undefined;

  const deviceRow = () =>
    f.t.db.selectFrom("devices").selectAll().where("id", "=", device.id).executeTakeFirstOrThrow();

  it("says hello and reports every collect type, its modem from mmcli", async () => {
    await eventually(async () => (await deviceRow()).firmware === "23.05.3", "the hello stored", 20_000);
    for (const type of ["board", "interfaces", "routing", "modems", "ethernets", "tunnels"])
      await eventually(async () => (await collect(type)) !== undefined, `collect/${type}`, 20_000);
    expect(await deviceRow()).toMatchObject({ model: "GL.iNet GL-X3000" });
    expect(await collect("modems")).toMatchObject({
      modems: [
        {
          id: "0",
          mode: "LTE",
          module: "Quectel EC25-E",
          operator: "MegaFon",
          imei: "866758041234567",
          iccid: "8970102123456789012",
          rsrp: -94,
          sinr: 13.2,
          csq: 23,
          primary: true,
        },
      ],
    });
    expect(await collect("tunnels")).toMatchObject({ tunnels: [{ name: "office", kind: "openvpn" }] });
    const routing = (await collect("routing")) as { routes: Array<{ is_default: boolean }> };
    expect(routing.routes.filter((route) => route.is_default).length).toBeLessThanOrEqual(1);
  });

  it("stays within 4 MB of memory while listening (proportional set size of all its processes)", async () => {
    await eventually(async () => (await collect("tunnels")) !== undefined, "reporting", 20_000);
    const pgid = router.pid();
    expect(pgid).toBeDefined();
    const pss = groupPss(pgid as number);
    expect(pss).toBeGreaterThan(0);
    expect(pss).toBeLessThanOrEqual(4096);
  });
});
