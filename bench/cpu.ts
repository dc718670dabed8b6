import { readFileSync } from "node:fs";
import pg from "pg";

/** CPU time the whole machine spent busy (all cores, all processes), in ms, from /proc/stat. */
export function machineBusyMs(): number {
  const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "")
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
  return ((user + nice + system + irq + softirq + steal) * 1000) / 100; // USER_HZ is 100 on Linux
}

/** A process's CPU time (user + system) in ms. */
export function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

/** A process's CPU time (user + system) in ms from /proc/[pid]/stat; 0 once it has ended. */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command: state is field 3, utime 14, stime 15 (1-based, /proc/[pid]/stat).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0; // The process ended while we read.
  }
}

/**
 * CPU time of the PostgreSQL backends serving one database (pg_stat_activity.datname), not every
 * postgres process on the machine: the machine is shared, and other people's databases, tests and
 * autovacuum run beside a benchmark. `sample()` answers the CPU those backends spent since `start()`,
 * over the union of the backends seen at both readings (one that ended between them is lost; the
 * benchmarks' pools keep theirs open). The admin connection it reads through sits in another database.
 */
export class DatabaseCpu {
  private readonly client: pg.Client;
  private baseline = new Map<number, number>();
  private constructor(
    databaseUrl: string,
    private readonly database: string,
  ) {
    const admin = new URL(databaseUrl);
    admin.pathname = "/postgres";
    this.client = new pg.Client({ connectionString: admin.toString() });
  }

  /** A reader of `databaseUrl`'s database, connected through that server's `postgres` database. */
  static async open(databaseUrl: string): Promise<DatabaseCpu> {
    const database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
    const reader = new DatabaseCpu(databaseUrl, database);
    await reader.client.connect();
    return reader;
  }

  /** The process ids of the database's backends now (autovacuum workers on it included). */
  async pids(): Promise<number[]> {
    const result = await this.client.query<{ pid: number }>(
      "select pid from pg_stat_activity where datname = $1",
      [this.database],
    );
    return result.rows.map((row) => row.pid);
  }

  /** Remembers each backend's CPU now. */
  async start(): Promise<void> {
    this.baseline = new Map((await this.pids()).map((pid) => [pid, processCpuMs(pid)]));
  }

  /** CPU ms the database's backends spent since start(). */
  async sample(): Promise<number> {
    let total = 0;
    for (const pid of new Set([...this.baseline.keys(), ...(await this.pids())])) {
      const now = processCpuMs(pid);
      if (now > 0) total += now - (this.baseline.get(pid) ?? 0);
    }
    return total;
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}
