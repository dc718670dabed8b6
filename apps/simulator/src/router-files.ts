import { gzipSync } from "node:zlib";
import type { RouterState } from "./device";
import { Random } from "./random";

// What a simulated router uploads, at the sizes real ones send: a configuration backup is a
// gzipped tar of /etc (OpenWrt's `sysupgrade -b`: tens of kilobytes, certificates included), a
// journal is the system log (`logread`: hundreds of kilobytes of lines). A backup depends only on
// the router's configuration, so an unchanged router sends the identical backup again.

/** A tar member: a path and its text. */
interface TarEntry {
  path: string;
  text: string;
}

/** One 512-byte ustar header (the fields a tar reader needs; mtime fixed so equal input gives equal bytes). */
function tarHeader(path: string, size: number): Buffer {
  const header = Buffer.alloc(512, 0);
  header.write(path.slice(0, 100), 0, "utf8");
  header.write("0000644\0", 100, "ascii");
  header.write("0000000\0", 108, "ascii");
  header.write("0000000\0", 116, "ascii");
  header.write(`${size.toString(8).padStart(11, "0")}\0`, 124, "ascii");
  header.write(`${(1_767_225_600).toString(8).padStart(11, "0")}\0`, 136, "ascii");
  header.write("        ", 148, "ascii");
  header.write("0", 156, "ascii");
  header.write("ustar\0", 257, "ascii");
  header.write("00", 263, "ascii");
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "ascii");
  return header;
}

/** A tar archive of the entries (each padded to 512 bytes, two empty blocks at the end). */
function tarOf(entries: readonly TarEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const data = Buffer.from(entry.text, "utf8");
    blocks.push(tarHeader(entry.path, data.length), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

/** Base64 text that compresses as little as a real key or certificate does. */
function pemBlock(random: Random, label: string, bytes: number): string {
  const data = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i++) data[i] = random.int(0, 255);
  const lines = data.toString("base64").match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

function uciSection(type: string, name: string, options: Record<string, string>): string {
  const lines = Object.entries(options).map(([key, value]) => `\toption ${key} '${value}'`);
  return `config ${type} '${name}'\n${lines.join("\n")}\n\n`;
}

/** The router's /etc as OpenWrt keeps it, from its configuration alone. */
function configFiles(state: RouterState): TarEntry[] {
  // Seeded by what the configuration is made of: the same router, unchanged, gives the same files.
  const random = new Random(
    `config:${state.ident}:${state.firmware}:${state.tunnels.map((t) => t.remote).join(",")}`,
  );
  let network = uciSection("interface", "loopback", { device: "lo", proto: "static", ipaddr: "127.0.0.1" });
  network += uciSection("interface", "lan", {
    device: "br-lan",
    proto: "static",
    ipaddr: "192.168.1.1",
    netmask: "255.255.255.0",
  });
  state.modems.forEach((modem, index) => {
    network += uciSection("interface", `mob${index + 1}s1a1`, {
      proto: "wwan",
      modem: modem.imei,
      metric: String(index + 1),
    });
  });
  for (const tunnel of state.tunnels)
    network += uciSection("interface", tunnel.name, { proto: tunnel.kind, peer: tunnel.remote });
  let firewall = uciSection("defaults", "defaults", { input: "ACCEPT", output: "ACCEPT", forward: "REJECT" });
  const rules = random.int(40, 160);
  for (let i = 0; i < rules; i++) {
    firewall += uciSection("rule", `rule_${i}`, {
      name: `Allow-${random.pick(["SSH", "HTTPS", "SNMP", "Modbus", "IPsec", "OpenVPN", "DNS"])}-${i}`,
      src: random.pick(["wan", "lan", "vpn"]),
      proto: random.pick(["tcp", "udp", "tcp udp"]),
      dest_port: String(random.int(1, 65535)),
      target: random.pick(["ACCEPT", "DROP", "REJECT"]),
    });
  }
  const system = uciSection("system", "system", {
    hostname: state.hostname,
    timezone: "UTC",
    zonename: "UTC",
  });
  const certificates = Array.from({ length: random.int(4, 10) }, (_, i) =>
    pemBlock(random, i === 0 ? "PRIVATE KEY" : "CERTIFICATE", random.int(1500, 4000)),
  ).join("");
  return [
    { path: "etc/config/network", text: network },
    { path: "etc/config/firewall", text: firewall },
    { path: "etc/config/system", text: system },
    { path: "etc/openvpn/client.pem", text: certificates },
    { path: "etc/version", text: `${state.model.vendor} ${state.model.model} ${state.firmware}\n` },
  ];
}

/** A configuration backup as the router makes it: a .tar.gz of its /etc (tens of kilobytes). */
export function routerBackup(state: RouterState): Uint8Array {
  return new Uint8Array(gzipSync(tarOf(configFiles(state)), { level: 6 }));
}

const LOG_LINES = [
  "daemon.info mobifd: Modem {modem} signal {rssi} dBm",
  "daemon.notice netifd: Interface 'mob1s1a1' is now up",
  "kern.info kernel: [{uptime}] br-lan: port 1(eth0) entered forwarding state",
  "daemon.info dnsmasq-dhcp[1432]: DHCPACK(br-lan) 192.168.1.{host} 00:1e:42:{mac}",
  "authpriv.info dropbear[{pid}]: Child connection from 10.{a}.{b}.{c}:{port}",
  "daemon.warn openvpn(client)[{pid}]: WARNING: 'link-mtu' is used inconsistently",
  "user.notice cellfleet-agent: collect published seq {seq}",
  "daemon.err gsmd: AT+CSQ timeout on /dev/ttyUSB2",
] as const;

/** The system journal (`logread`) up to `now`: a few thousand lines, hundreds of kilobytes. */
export function routerJournal(state: RouterState, now: number): Uint8Array {
  const random = new Random(`journal:${state.ident}:${now}`);
  const count = random.int(2000, 8000);
  const lines: string[] = [];
  let at = Math.max(state.bootedAt, now - 86_400_000);
  const step = (now - at) / count;
  for (let i = 0; i < count; i++) {
    at += step;
    const text = random
      .pick(LOG_LINES)
      .replace(/\{(\w+)\}/g, (_, name: string) =>
        name === "modem" ? (state.modems[0]?.imei ?? "0") : String(random.int(1, 65000)),
      );
    lines.push(`${new Date(at).toUTCString()} ${state.hostname} ${text}`);
  }
  return new TextEncoder().encode(`${lines.join("\n")}\n`);
}
