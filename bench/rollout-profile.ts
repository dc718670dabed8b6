// An optional CPU profile of the server process over the rollout alone (BENCH_CPU_PROFILE=<file>):
// V8's sampling profiler through node:inspector, written as a .cpuprofile (Chrome DevTools opens it).
// summarizeProfile() prints the self time per source file, the largest first.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
}

export async function startProfile(): Promise<() => Promise<Profile>> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 1000 });
  await session.post("Profiler.start");
  return async () => {
    const { profile } = (await session.post("Profiler.stop")) as { profile: Profile };
    session.disconnect();
    return profile;
  };
}

/** Writes the profile and prints the self time of the 25 heaviest files (or node_modules packages). */
export function summarizeProfile(profile: Profile, file: string): void {
  writeFileSync(file, JSON.stringify(profile));
  const total = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0);
  const byFile = new Map<string, number>();
  for (const node of profile.nodes) {
    const url = node.callFrame.url;
    const modules = url.lastIndexOf("node_modules/");
    const key =
      url === ""
        ? `(${node.callFrame.functionName || "native"})`
        : modules >= 0
          ? url
              .slice(modules + 13)
              .split("/")
              .slice(0, url.slice(modules + 13).startsWith("@") ? 2 : 1)
              .join("/")
          : url.replace(/^.*\/(apps|packages|bench)\//, "$1/");
    byFile.set(key, (byFile.get(key) ?? 0) + (node.hitCount ?? 0));
  }
  console.log(`CPU profile ${file}: ${total} samples; self time by file:`);
  for (const [key, hits] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`  ${((100 * hits) / Math.max(1, total)).toFixed(1).padStart(5)}%  ${key}`);
}
