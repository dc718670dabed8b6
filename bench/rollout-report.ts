// The printout of bench/rollout.ts: a table per stage (canary, waves) and the run's totals.

/** The server's state when the rollout's stage changed (stage -1: it ended). */
export interface StageMark {
  stage: number;
  at: number;
  /** The server process's CPU (user + system) so far, ms. */
  cpuMs: number;
  /** The CPU of the PostgreSQL backends serving the bench's database so far, ms. */
  pgMs: number;
}

export interface RolloutFigures {
  engine: string;
  routers: number;
  options: object;
  rebootMs: number;
  failRate: number;
  load: string[];
  loadAfter: string[];
  connectedMs: number;
  status: string;
  reason: string | null;
  marks: StageMark[];
  targets: Array<{ stage: number; state: string; count: number }>;
  advanceMs: number[];
  maxRssMb: number;
  pgMs: number;
  fleetCpuMs: number;
  fleetReboots: number;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

export function printRollout(f: RolloutFigures): void {
  const inStage = (stage: number, state?: string) =>
    f.targets
      .filter((row) => row.stage === stage && (state === undefined || row.state === state))
      .reduce((sum, row) => sum + row.count, 0);
  const finished = f.targets.filter((row) => row.state === "succeeded" || row.state === "failed");
  const done = finished.reduce((sum, row) => sum + row.count, 0);
  console.log(
    `\n${f.engine}: ${f.routers} routers (hellos stored in ${(f.connectedMs / 1000).toFixed(1)} s), reboot ${f.rebootMs} ms, ` +
      `command fail rate ${f.failRate}; options ${JSON.stringify(f.options)}; load before ${f.load.join(" ")}, after ${f.loadAfter.join(" ")}`,
  );
  console.log(
    "| stage | routers | succeeded | failed | wall s | server CPU s | server CPU ms a finished router | PostgreSQL CPU ms a finished router |",
  );
  console.log(
    "| ----- | ------: | --------: | -----: | -----: | -----------: | ------------------------------: | ----------------------------------: |",
  );
  for (let i = 0; i + 1 < f.marks.length; i += 1) {
    const from = f.marks[i] as StageMark;
    const to = f.marks[i + 1] as StageMark;
    const routers = inStage(from.stage);
    // A stage cut short by the time limit: its CPU is spread over the routers it finished.
    const finishedHere = inStage(from.stage, "succeeded") + inStage(from.stage, "failed");
    const cpu = to.cpuMs - from.cpuMs;
    const pg = to.pgMs - from.pgMs;
    console.log(
      `| ${from.stage === 0 ? "canary" : `wave ${from.stage}`} | ${routers} | ${inStage(from.stage, "succeeded")} | ${inStage(from.stage, "failed")} | ` +
        `${((to.at - from.at) / 1000).toFixed(1)} | ${(cpu / 1000).toFixed(2)} | ${(cpu / Math.max(1, finishedHere)).toFixed(2)} | ${(pg / Math.max(1, finishedHere)).toFixed(2)} |`,
    );
  }
  const first = f.marks[0] as StageMark;
  const last = f.marks[f.marks.length - 1] as StageMark;
  const wallS = (last.at - first.at) / 1000;
  const cpu = last.cpuMs - first.cpuMs;
  const advances = [...f.advanceMs].sort((a, b) => a - b);
  console.log(
    `${f.status}${f.reason ? ` (${f.reason})` : ""} after ${wallS.toFixed(1)} s; ${done} routers finished ` +
      `(${(done / wallS).toFixed(1)} a second); server CPU ${(cpu / 1000).toFixed(1)} s = ${(cpu / Math.max(1, done)).toFixed(2)} ms a finished router ` +
      `(${((100 * cpu) / (last.at - first.at)).toFixed(0)}% of a core); PostgreSQL CPU ${(f.pgMs / 1000).toFixed(1)} s (this database's backends); ` +
      `fleet CPU ${(f.fleetCpuMs / 1000).toFixed(1)} s, ${f.fleetReboots} reboots; server RSS peak ${f.maxRssMb.toFixed(0)} MB; ` +
      `${advances.length} advances, due→finished p50 ${quantile(advances, 0.5)} ms, p90 ${quantile(advances, 0.9)} ms, max ${advances[advances.length - 1] ?? 0} ms`,
  );
}
