import pg from "pg";

/** What sampling a database's backends in pg_stat_activity saw. */
export interface BackendWaits {
  samples: number;
  /** Backend-samples running a statement ('active'). */
  active: number;
  /** Backend-samples waiting for a lock (wait_event_type 'Lock': another transaction's row or table lock). */
  lockWaits: number;
  /** The most backends waiting for a lock in one sample. */
  maxLockWaiters: number;
  /** Backend-samples 'idle in transaction': a transaction open while the client (Node) does something else. */
  idleInTransaction: number;
  /** Lock wait events by name (transactionid, tuple…), backend-samples. */
  lockEvents: Record<string, number>;
}

/**
 * Samples the backends of one database (pg_stat_activity.datname) every `everyMs` through an admin
 * connection to the server's `postgres` database (so the sampler is never one of them): how many run,
 * wait for a lock, or sit idle inside a transaction.
 */
export class BackendSampler {
  private readonly waits: BackendWaits = {
    samples: 0,
    active: 0,
    lockWaits: 0,
    maxLockWaiters: 0,
    idleInTransaction: 0,
    lockEvents: {},
  };
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();

  private constructor(
    private readonly client: pg.Client,
    private readonly database: string,
  ) {}

  static async start(databaseUrl: string, everyMs = 20): Promise<BackendSampler> {
    const admin = new URL(databaseUrl);
    const database = decodeURIComponent(admin.pathname.slice(1));
    admin.pathname = "/postgres";
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    const sampler = new BackendSampler(client, database);
    sampler.timer = setInterval(() => {
      sampler.running = sampler.running.then(() => sampler.sample()).catch(() => {});
    }, everyMs);
    return sampler;
  }

  private async sample(): Promise<void> {
    const { rows } = await this.client.query<{
      state: string | null;
      wait_event_type: string | null;
      wait_event: string | null;
    }>(
      "select state, wait_event_type, wait_event from pg_stat_activity where datname = $1 and backend_type = 'client backend'",
      [this.database],
    );
    const w = this.waits;
    w.samples++;
    let waiters = 0;
    for (const row of rows) {
      if (row.state === "active") w.active++;
      if (row.state === "idle in transaction") w.idleInTransaction++;
      if (row.wait_event_type === "Lock") {
        waiters++;
        const name = row.wait_event ?? "?";
        w.lockEvents[name] = (w.lockEvents[name] ?? 0) + 1;
      }
    }
    w.lockWaits += waiters;
    w.maxLockWaiters = Math.max(w.maxLockWaiters, waiters);
  }

  /** Stops sampling and answers what it saw. */
  async stop(): Promise<BackendWaits> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
    await this.client.end();
    return this.waits;
  }
}

/** One line of what the sampler saw. */
export function describeWaits(w: BackendWaits): string {
  const per = (n: number) => (w.samples === 0 ? "0" : (n / w.samples).toFixed(2));
  const events = Object.entries(w.lockEvents)
    .map(([name, n]) => `${name} ${n}`)
    .join(", ");
  return (
    `pg_stat_activity, ${w.samples} samples: active ${per(w.active)} a sample, ` +
    `waiting on a lock ${per(w.lockWaits)} (${w.lockWaits} backend-samples${events ? `: ${events}` : ""}, at most ${w.maxLockWaiters} at once), ` +
    `idle in transaction ${per(w.idleInTransaction)} (${w.idleInTransaction} backend-samples)`
  );
}
