import { readdirSync, readFileSync } from "node:fs";

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

/** CPU time of every PostgreSQL process on this machine (server and backends), in ms, from /proc. */
export function postgresCpuMs(): number {
  let ticks = 0;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      if (!stat.slice(stat.indexOf("(") + 1, close).startsWith("postgres")) continue;
      // Fields after the command: state is field 3, utime 14, stime 15 (1-based, /proc/[pid]/stat).
      const fields = stat.slice(close + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended while we read.
    }
  }
  return (ticks * 1000) / 100;
}
