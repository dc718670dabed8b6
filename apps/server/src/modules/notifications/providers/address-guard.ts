import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { BlockList, isIP } from "node:net";

// A webhook URL is typed by people, so a request to it must not reach the server's own network:
// loopback, link-local, private ranges and cloud metadata addresses are refused (server-side
// request forgery). Names are checked after DNS resolution, at connect time, so a name that
// resolves to a private address (or changes to one: DNS rebinding) is refused as well.

/** Cloud metadata services: refused even when private addresses are allowed. */
const METADATA = new BlockList();
METADATA.addAddress("169.254.169.254", "ipv4");
METADATA.addAddress("169.254.170.2", "ipv4");
METADATA.addAddress("100.100.100.200", "ipv4");
METADATA.addAddress("fd00:ec2::254", "ipv6");

/** Addresses that are not the public internet. */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  PRIVATE.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["64:ff9b::", 96],
] as const) {
  PRIVATE.addSubnet(network, prefix, "ipv6");
}

/** Thrown when a webhook would reach a refused address; its message names the address, never the URL. */
export class RefusedAddressError extends Error {
  override name = "RefusedAddressError";
}

/** An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) as its IPv4 address; anything else as is. */
function unmapped(address: string): { address: string; family: "ipv4" | "ipv6" } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return { address: mapped[1], family: "ipv4" };
  return { address, family: isIP(address) === 6 ? "ipv6" : "ipv4" };
}

/** Why an address is refused, or null when a webhook may reach it. */
export function refusalOf(rawAddress: string, allowPrivate: boolean): string | null {
  const { address, family } = unmapped(rawAddress.replace(/^\[|\]$/g, ""));
  if (METADATA.check(address, family)) return `${address} is a cloud metadata address`;
  if (!allowPrivate && PRIVATE.check(address, family)) {
    return `${address} is a loopback, link-local or private address`;
  }
  return null;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http.request that resolves the name and refuses it when any of its addresses is
 * refused. Connecting only to what was checked leaves no gap for a second, different answer.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, []);
        return;
      }
      const list = addresses as LookupAddress[];
      for (const entry of list) {
        const refusal = refusalOf(entry.address, allowPrivate);
        if (refusal) {
          callback(new RefusedAddressError(`The webhook's host resolves to ${refusal}`), []);
          return;
        }
      }
      if (options.all) callback(null, list);
      else callback(null, list[0]?.address ?? "", list[0]?.family ?? 4);
    });
  };
}

/** Refuses a URL whose host is a refused IP literal (literals never go through lookup). */
export function assertHostAllowed(url: URL, allowPrivate: boolean): void {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) === 0) return;
  const refusal = refusalOf(host, allowPrivate);
  if (refusal) throw new RefusedAddressError(`The webhook's address is ${refusal}`);
}
