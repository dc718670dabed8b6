import type { Duplex } from "node:stream";

// The simulated router's shell (ADR 038): a small restricted shell of its own, not the machine's.
// It answers a few BusyBox commands from the router's state and refuses everything else, so a
// terminal session through the console carries a real shell session without reaching the host.

/** What the shell answers about its router. */
export interface ShellRouter {
  ident: string;
  model: string;
  firmware: string;
  uptimeSeconds(): number;
}

/** The prompt, as OpenWrt's ash shows it. */
export function promptOf(router: ShellRouter): string {
  return `root@${router.ident}:~# `;
}

/** The output of one command line (without the trailing prompt); null for `exit`. */
export function runShellLine(line: string, router: ShellRouter): string | null {
  const words = line
    .trim()
    .split(/\s+/)
    .filter((word) => word !== "");
  const [name, ...args] = words;
  switch (name) {
    case undefined:
      return "";
    case "exit":
    case "logout":
      return null;
    case "uname":
      return args.includes("-a")
        ? `Linux ${router.ident} 5.15.137 #0 SMP Thu Nov 28 00:00:00 2026 ${router.model} GNU/Linux\r\n`
        : "Linux\r\n";
    case "hostname":
      return `${router.ident}\r\n`;
    case "uptime": {
      const minutes = Math.floor(router.uptimeSeconds() / 60);
      return ` up ${minutes} min,  load average: 0.00, 0.01, 0.05\r\n`;
    }
    case "id":
      return "uid=0(root) gid=0(root)\r\n";
    case "echo":
      return `${args.join(" ")}\r\n`;
    case "cat":
      return args[0] === "/etc/openwrt_version"
        ? `${router.firmware}\r\n`
        : `cat: ${args[0] ?? "-"}: Permission denied\r\n`;
    case "seq": {
      // BusyBox's `seq FIRST LAST`, bounded: enough to fill a quota or measure a bandwidth cap.
      const first = Number(args.length > 1 ? args[0] : 1);
      const last = Math.min(Number(args.length > 1 ? args[1] : args[0]), 10_000_000);
      if (!Number.isInteger(first) || !Number.isInteger(last)) return "seq: invalid number\r\n";
      const lines: string[] = [];
      for (let n = first; n <= last; n++) lines.push(String(n));
      return lines.length > 0 ? `${lines.join("\r\n")}\r\n` : "";
    }
    case "help":
      return "Built-in commands: uname [-a], hostname, uptime, id, echo, cat /etc/openwrt_version, seq, exit\r\n";
    default:
      return `-ash: ${name}: not found\r\n`;
  }
}

/** Runs the shell on an SSH session's stream: echoes what is typed, runs each line, until `exit`. */
export function serveShell(stream: Duplex, router: ShellRouter, onExit: () => void): void {
  let line = "";
  let isDone = false;
  const write = (text: string) => {
    if (!isDone) stream.write(text);
  };
  write(`\r\nBusyBox v1.36.1 (simulated ${router.model})\r\n\r\n${promptOf(router)}`);
  stream.on("data", (chunk: Buffer) => {
    for (const char of chunk.toString("utf8")) {
      if (isDone) return;
      if (char === "\r" || char === "\n") {
        write("\r\n");
        const output = runShellLine(line, router);
        line = "";
        if (output === null) {
          isDone = true;
          onExit();
          return;
        }
        write(`${output}${promptOf(router)}`);
      } else if (char === "\x7f" || char === "\b") {
        if (line.length > 0) {
          line = line.slice(0, -1);
          write("\b \b");
        }
      } else if (char === "\x03") {
        line = "";
        write(`^C\r\n${promptOf(router)}`);
      } else if (char === "\x04" && line === "") {
        isDone = true;
        onExit();
        return;
      } else if (char >= " ") {
        line += char;
        write(char);
      }
    }
  });
}
