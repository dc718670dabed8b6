import { COMMAND_CODES, type CommandMessage, type CommandState, isCommandId } from "@cellfleet/contract";
import type { RouterState } from "./device";
import { routerBackup, routerJournal } from "./router-files";
import { transferFile } from "./transfer";

/** A status the router reports for a command. */
export interface StatusBody {
  id: string;
  state: CommandState;
  code: number | null;
  output: string;
}

/** What running a command asks of the router besides reporting: a reboot afterwards, into new firmware. */
export interface CommandOutcome {
  status: StatusBody;
  rebootAfter: boolean;
  /** After a successful `fw_update`: the firmware version the router boots into. */
  firmware?: string;
}

/**
 * The version a firmware image installs: `args.version` when the console names it, else the image's
 * file name without its extension (vendors name images after the version, `RUT9_R_00.07.06.bin`).
 */
export function firmwareVersionOf(command: CommandMessage): string | null {
  if (typeof command.args.version === "string" && command.args.version.trim() !== "")
    return command.args.version.trim();
  const name = command.file?.filename?.replace(/\.(bin|img|trx|npk|itb|tar|gz|zip)$/gi, "");
  return name ? name : null;
}

/** A plausible one-line answer to a shell script; the simulator runs nothing. */
export function fakeShellOutput(script: string, state: RouterState, now: number): string {
  const uptime = Math.max(0, Math.floor((now - state.bootedAt) / 1000));
  if (/\buptime\b/.test(script)) {
    const days = Math.floor(uptime / 86_400);
    const hours = Math.floor((uptime % 86_400) / 3600);
    const minutes = String(Math.floor((uptime % 3600) / 60)).padStart(2, "0");
    return ` up ${days} days, ${hours}:${minutes},  load average: ${(state.cpuLoad / 100).toFixed(2)}`;
  }
  if (/\bhostname\b/.test(script)) return state.hostname;
  return `${state.hostname}: ran ${JSON.stringify(script.slice(0, 200))} (simulated)`;
}

/** The exit status of a simulated script: N when its last line is `exit N`, else 0. */
export function exitStatusOf(script: string): number {
  const last = script.trim().split("\n").at(-1) ?? "";
  const match = /^exit\s+(\d{1,3})\s*;?$/.exec(last.trim());
  return match ? Number(match[1]) % 256 : COMMAND_CODES.success;
}

/** What a router uploads for a command: its backup or journal, as real ones are made and sized. */
export function uploadFor(command: CommandMessage, state: RouterState, now: number): Uint8Array {
  if (command.type === "backup") return routerBackup(state);
  return routerJournal(state, now);
}

/**
 * Runs a command that was accepted: answers a fake output for `shell`, does the real HTTP transfer for
 * file commands, and asks for a reboot after `reboot`, `factory_reset` and a successful `fw_update`.
 */
export async function runCommand(
  command: CommandMessage,
  state: RouterState,
  now: number,
): Promise<CommandOutcome> {
  const done = (code: number, output: string, rebootAfter = false): CommandOutcome => ({
    status: { id: command.id, state: code === 0 ? "completed" : "failed", code, output },
    rebootAfter,
  });
  switch (command.type) {
    case "shell": {
      const script = String(command.args.script ?? "");
      return done(exitStatusOf(script), fakeShellOutput(script, state, now));
    }
    case "reboot":
      return done(COMMAND_CODES.success, "rebooting", true);
    case "factory_reset":
      return done(COMMAND_CODES.success, "factory defaults restored, rebooting", true);
    default: {
      if (command.file === undefined) return done(COMMAND_CODES.failed, `${command.type} needs a file`);
      const result = await transferFile(command.file, uploadFor(command, state, now), now);
      const isFirmware = command.type === "fw_update" && result.code === 0;
      const firmware = isFirmware ? firmwareVersionOf(command) : null;
      return { ...done(result.code, result.output, isFirmware), ...(firmware ? { firmware } : {}) };
    }
  }
}

/** The `id` of a command payload that failed validation, if it is there and well-formed. */
export function readCommandId(payload: Buffer): string | null {
  try {
    const value: unknown = JSON.parse(payload.toString("utf8"));
    if (typeof value !== "object" || value === null) return null;
    const id = (value as { id?: unknown }).id;
    return typeof id === "string" && isCommandId(id) ? id : null;
  } catch {
    return null;
  }
}
