import { type CommandType, collectTopic, noticeTopic } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectDevice, envelope, eventually } from "../modules/ingest/ingest.test-support";
import { subscriberKind } from "../platform/jobs/jobs";
import { OUTBOX_EVENTS } from "../platform/jobs/outbox-events";
import { type ConformanceBroker, type ConformanceFixture, openConformanceConsole } from "./console";
import type { DeviceDriver, DeviceUnderTest } from "./driver";

// What every agent must do, checked the same way for each (issue 25): the simulator, the OpenWrt
// agent, the next vendor's. An agent's test file calls describeConformance with its driver.

/** How a conformance run is tuned for one agent. */
export interface ConformanceOptions {
  /**
   * The command types to check; the driver's declared ones by default. The suite checks shell,
   * reboot, backup and journal; other declared types are not sent.
   */
  commandTypes?: readonly CommandType[];
  /**
   * How long one step may take (first contact, a command, a reconnect), ms; default 30 s. Keep it
   * under the server's one-minute resend, so that a command the agent missed fails the run.
   */
  timeoutMs?: number;
  /**
   * The broker the agent joins (default the console's embedded one). Behind Mosquitto the
   * zero-touch join is not checked: its first connect needs the embedded broker (docs/device-protocol.md).
   */
  broker?: ConformanceBroker;
}

/** Registers the conformance scenarios for one agent. */
export function describeConformance(driver: DeviceDriver, options: ConformanceOptions = {}): void {
  const types = options.commandTypes ?? driver.commandTypes;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const testTimeout = timeoutMs * 4;
  const broker = options.broker ?? "embedded";

  describe(`device protocol conformance: ${driver.name}, ${broker} broker`, () => {
    let c: ConformanceFixture;
    const running: DeviceUnderTest[] = [];

    beforeAll(async () => {
      c = await openConformanceConsole(broker);
    }, 60_000);
    afterAll(async () => {
      await Promise.all(running.splice(0).map((device) => device.stop()));
      await c?.close();
    }, 60_000);

    async function startWithKey() {
      const device = await c.device();
      const agent = await driver.start(c.address, {
        kind: "key",
        ident: device.ident,
        key: device.key ?? "",
      });
      running.push(agent);
      return { device, agent };
    }

    /** Waits until the device page shows the router online with a board and a modems report. */
    /**
     * The job the router's hello made, which re-sends the head of the router's queue, has run (the
     * hello comes first, so it is stored once the router shows online): a command queued after this
     * is published by its own pump only.
     */
    async function helloHandled() {
      await eventually(
        async () => {
          const waiting = await c.t.db
            .selectFrom("jobs")
            .select("id")
            .where("kind", "=", subscriberKind(OUTBOX_EVENTS.deviceReported, "actions"))
            .where("state", "in", ["queued", "running"])
            .limit(1)
            .execute();
          return waiting.length === 0;
        },
        "the hello's re-send of the queue's head run",
        timeoutMs,
      );
    }

    async function shownOnline(deviceId: string) {
      await eventually(
        async () => {
          const detail = await c.detail(deviceId);
          const reported = (type: string) => detail.collects.find((row) => row.type === type)?.data != null;
          return detail.device.status === "online" && reported("board") && reported("modems");
        },
        "the router online with its board and modems",
        timeoutMs,
      );
      return c.detail(deviceId);
    }

    // The stored seq of the shown board: it moves on with every board report that replaces it.
    const boardSeq = async (deviceId: string) => {
      const row = await c.t.db
        .selectFrom("device_collects")
        .select("seq")
        .where("device_id", "=", deviceId)
        .where("type", "=", "board")
        .executeTakeFirst();
      return Number(row?.seq ?? -1);
    };

    /** The highest seq stored for the device among its shown collects and its events. */
    const highestStoredSeq = async (deviceId: string) => {
      const [collects, events] = await Promise.all(
        (["device_collects", "events"] as const).map((table) =>
          c.t.db
            .selectFrom(table)
            .select((eb) => eb.fn.max("seq").as("seq"))
            .where("device_id", "=", deviceId)
            .executeTakeFirst(),
        ),
      );
      return Math.max(Number(collects?.seq ?? -1), Number(events?.seq ?? -1));
    };

    it(
      "joins with a key and appears online with its board and modems, as its hello says",
      async () => {
        const { device } = await startWithKey();
        const detail = await shownOnline(device.id);
        const board = detail.collects.find((row) => row.type === "board")?.data as { model: string };
        expect(detail.device.board.model).toBe(board.model);
        const modems = detail.collects.find((row) => row.type === "modems")?.data as { modems: unknown[] };
        expect(Array.isArray(modems.modems)).toBe(true);
      },
      testTimeout,
    );

    it(
      "keeps reporting collects, and after a restart with a new epoch is shown again (issue 25, item 1)",
      async () => {
        const { device, agent } = await startWithKey();
        await shownOnline(device.id);
        // Many collects first: the device row's last_seq then lags behind what is stored.
        const seen = new Set<number>();
        await eventually(
          async () => seen.add(await boardSeq(device.id)).size >= 4,
          "three more board reports",
          timeoutMs,
        );
        const restarts = c.ingest.ingest.stats().epochsRestarted;
        await agent.stop();
        const before = await highestStoredSeq(device.id);
        await agent.restart();
        await eventually(
          () => c.ingest.ingest.stats().epochsRestarted > restarts,
          "the server to see a new epoch",
          timeoutMs,
        );
        // The new numbering starts after everything stored, so its first reports replace the shown ones.
        const offset = async () =>
          Number(
            (
              await c.t.db
                .selectFrom("devices")
                .select("seq_offset")
                .where("id", "=", device.id)
                .executeTakeFirstOrThrow()
            ).seq_offset,
          );
        await eventually(
          async () => (await offset()) > before,
          "a numbering after everything stored",
          timeoutMs,
        );
        await eventually(
          async () => (await boardSeq(device.id)) > before,
          "a board report of the new epoch shown",
          timeoutMs,
        );
      },
      testTimeout,
    );

    it.runIf(broker === "embedded")(
      "joins by zero-touch with a model holding a space, and appears online",
      async () => {
        const { keyId, secret } = await c.zeroTouchConfig();
        const serial = `C${Date.now().toString(36).toUpperCase()}`;
        const agent = await driver.start(c.address, {
          kind: "zero-touch",
          secret,
          keyId,
          model: "LtAP LTE6",
          serial,
        });
        running.push(agent);
        let deviceId = "";
        await eventually(
          async () => {
            const row = await c.t.db
              .selectFrom("devices")
              .select(["id", "domain_id"])
              .where("ident", "=", agent.ident)
              .executeTakeFirst();
            deviceId = row?.domain_id === c.domainId ? row.id : "";
            return deviceId !== "";
          },
          `${agent.ident} created by its zero-touch join`,
          timeoutMs,
        );
        await shownOnline(deviceId);
      },
      testTimeout,
    );

    describe.runIf(types.includes("shell"))("shell", () => {
      it(
        "is accepted, then completed with its output; a failing script's exit status is its code",
        async () => {
          const { device } = await startWithKey();
          await shownOnline(device.id);
          const ok = await c.finished(
            await c.command(device.id, { type: "shell", args: { script: "echo conformance-ok" } }),
            timeoutMs,
          );
          expect(ok).toMatchObject({ status: "completed", code: 0 });
          expect(ok.output).toContain("conformance-ok");
          const states = c.statuses(ok._id);
          expect(states[0]).toEqual({ state: "accepted", code: null });
          expect(states.at(-1)).toEqual({ state: "completed", code: 0 });
          expect(states.slice(1, -1).every((s) => s.state === "running" && s.code === null)).toBe(true);

          const failed = await c.finished(
            await c.command(device.id, { type: "shell", args: { script: "echo failing\nexit 3" } }),
            timeoutMs,
          );
          expect(failed).toMatchObject({ status: "failed", code: 3 });
          expect(c.statuses(failed._id).at(-1)).toEqual({ state: "failed", code: 3 });
        },
        testTimeout,
      );
    });

    it.runIf(types.includes("shell"))(
      "runs commands queued back to back, each delivered once: none lost while the router reports",
      async () => {
        const { device } = await startWithKey();
        await shownOnline(device.id);
        await helloHandled();
        // The router's queue sends the next command as the previous one's final status arrives, that
        // is while the router is publishing: an agent that stops listening to publish loses it until
        // the server's resend a minute later (ADR 030), longer than a step may take here.
        const ids: string[] = [];
        for (const n of [1, 2, 3])
          ids.push(await c.command(device.id, { type: "shell", args: { script: `echo back-to-back-${n}` } }));
        // A step's limit (timeoutMs) is under that minute. The hello's re-send of the head has run
        // (above): had it run late, it would publish again whichever command was the head then. The
        // first may still go twice (an agent whose start connects twice says hello twice); the others
        // went out as their predecessor finished, so once each unless lost.
        for (const [index, id] of ids.entries()) {
          const done = await c.finished(id, timeoutMs);
          expect(done).toMatchObject({ status: "completed", code: 0 });
          expect(done.output).toContain(`back-to-back-${index + 1}`);
          if (index > 0) expect(done.attempts, `command ${index + 1} published once`).toBe(1);
        }
      },
      testTimeout,
    );

    describe.runIf(types.includes("reboot"))("reboot", () => {
      it(
        "completes, then the router comes back with a router_started event",
        async () => {
          const { device } = await startWithKey();
          await shownOnline(device.id);
          const done = await c.finished(await c.command(device.id, { type: "reboot" }), timeoutMs);
          expect(done).toMatchObject({ status: "completed", code: 0 });
          await eventually(
            async () =>
              (await c.t.db
                .selectFrom("events")
                .select("id")
                .where("device_id", "=", device.id)
                .where("kind", "=", "router_started")
                .executeTakeFirst()) !== undefined,
            "router_started after the reboot",
            timeoutMs,
          );
        },
        testTimeout,
      );
    });

    for (const type of (["backup", "journal"] as const).filter((t) => types.includes(t))) {
      it(
        `${type}: uploads the file through the signed URL and completes`,
        async () => {
          const { device } = await startWithKey();
          await shownOnline(device.id);
          const done = await c.finished(await c.command(device.id, { type }), timeoutMs);
          expect(done).toMatchObject({ status: "completed", code: 0 });
          await eventually(
            async () =>
              (await c.t.db
                .selectFrom("files")
                .select("id")
                .where("device_id", "=", device.id)
                .executeTakeFirst()) !== undefined,
            `the ${type} file stored`,
            timeoutMs,
          );
        },
        testTimeout,
      );
    }

    it(
      "is told why a topic of its own the server does not know was refused, and gets back online",
      async () => {
        const { device, agent } = await startWithKey();
        await shownOnline(device.id);
        // The console's side: a newer agent's unknown collect is acknowledged and explained.
        await agent.stop();
        const client = await connectDevice(c.address.mqttUrl, device.ident, device.token ?? undefined);
        const notices: Array<{ reason: string; topic: string }> = [];
        client.on("message", (_topic, payload) => notices.push(JSON.parse(payload.toString())));
        await client.subscribeAsync(noticeTopic(device.ident), { qos: 1 });
        await client.publishAsync(
          collectTopic(device.ident, "wifi" as "board"),
          JSON.stringify(envelope(1)),
          {
            qos: 1,
          },
        );
        await eventually(() => notices.length > 0, "a notice", timeoutMs);
        expect(notices[0]).toMatchObject({ reason: "unsupported_topic" });
        await client.endAsync();
        const before = await boardSeq(device.id);
        await agent.restart();
        await eventually(async () => (await boardSeq(device.id)) > before, "reports again", timeoutMs);
      },
      testTimeout,
    );

    it("declares shell at least", () => {
      expect(types).toContain("shell");
    });
  });
}
