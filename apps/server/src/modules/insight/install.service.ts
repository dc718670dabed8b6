import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { AgentInstallLink, BrokerAddress } from "@cellfleet/contract";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import { devicesRepo } from "../devices/devices.repo";
import { requireDeviceDomain } from "../devices/devices.service";
import { publicBrokers, replaceDeviceKey } from "./connect.service";
import { installRepo } from "./install.repo";

// The agent's one-line install (issue 25, ADR 034). A user who may edit a router (and so may give
// it a new key) asks for a link; the link serves the install script once, within minutes, filled
// with the router's ident and key, and that fetch is audited under the user who made it. The page
// shows the link, never the key; the generic script (no link) has no secret in it at all.

/** agents/openwrt in this repository: the install script and the files of the package it installs. */
export const AGENT_DIR = path.resolve(import.meta.dirname, "../../../../../agents/openwrt");

/** How long an install link serves (spec section 9 has no figure; ADR 034). */
export const INSTALL_LINK_TTL_MS = 15 * 60_000;

/** A link's token: 32 URL-safe characters (24 random bytes). */
export const INSTALL_TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** A value for a line `NAME=''` of the script: single-quoted, so nothing in it is shell syntax. */
function shellQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}

/** The script with its `NAME=''` lines filled; names not given stay empty. */
export function fillInstallScript(template: string, values: Record<string, string>): string {
  return template.replace(/^([A-Z_]+)=''$/gm, (line, name: string) =>
    values[name] === undefined ? line : `${name}=${shellQuote(values[name])}`,
  );
}

/** The broker the agent is set to: the first TLS address when there is one (its server verified). */
export function installBroker(brokers: readonly BrokerAddress[]): BrokerAddress | undefined {
  return brokers.find((broker) => broker.is_tls) ?? brokers[0];
}

function scriptUrl(ctx: AppContext): string {
  return `${ctx.config.publicUrl}/api/agent/install.sh`;
}

/**
 * POST /api/device/{dev_id}/install (who may edit devices): a link that serves the install script
 * with this router's ident and key, once, for INSTALL_LINK_TTL_MS. A router without a key is given
 * one first, as the "new key" button would.
 */
export async function createInstallLink(
  ctx: AppContext,
  session: SessionContext,
  deviceId: string,
): Promise<AgentInstallLink> {
  const domainId = requireDeviceDomain(session);
  const device = await devicesRepo(ctx.db).findDevice(domainId, deviceId);
  if (!device) throw new AppError("DEVICE_NOT_FOUND");
  const isKeyMade = !(device.has_key ?? false);
  if (isKeyMade) await replaceDeviceKey(ctx, session, deviceId);
  const token = randomBytes(24).toString("base64url");
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + INSTALL_LINK_TTL_MS);
  const repo = installRepo(ctx.db);
  // Links a day past their expiry say nothing useful any more (a fresher one says "expired").
  await repo.deleteExpiredAcrossDomains(new Date(now.getTime() - 24 * 3600_000));
  await repo.insertToken(domainId, {
    hash: hashToken(token),
    deviceId,
    userId: session.user.id,
    createdAt: now,
    expiresAt,
  });
  const url = `${scriptUrl(ctx)}?token=${token}`;
  return {
    url,
    command: `wget -qO- '${url}' | sh`,
    generic_command: `wget -qO- '${scriptUrl(ctx)}' | sh -s -- ${device.ident} KEY`,
    expires_at: expiresAt.getTime(),
    is_key_made: isKeyMade,
  };
}

/** Who fetched a link, for the audit log: the user who made it, in its domain. */
export interface InstallScriptActor {
  id: string;
  username: string;
  domainId: string;
}

/**
 * GET /api/agent/install.sh: the script with the console's address and the broker's; with a link's
 * token also the router's ident and key, the token then spent. Refused: TOKEN_HAS_EXPIRED for an
 * expired link, TOKEN_INVALID for an unknown or used one.
 */
export async function serveInstallScript(
  ctx: AppContext,
  token: string | undefined,
  embeddedPort: number | null,
): Promise<{ script: string; actor: InstallScriptActor | null; device?: { id: string; name: string } }> {
  const template = await readFile(path.join(AGENT_DIR, "install.sh"), "utf8");
  const broker = installBroker(publicBrokers(ctx.config, embeddedPort));
  const values: Record<string, string> = { CONSOLE_URL: ctx.config.publicUrl };
  if (broker) values.BROKER = broker.url;
  if (token === undefined) return { script: fillInstallScript(template, values), actor: null };
  const repo = installRepo(ctx.db);
  const hash = hashToken(token);
  const used = await repo.useTokenAcrossDomains(hash, ctx.now());
  if (!used) {
    const known = await repo.findTokenAcrossDomains(hash);
    if (known && known.used_at === null) throw new AppError("TOKEN_HAS_EXPIRED", "The install link expired");
    throw new AppError("TOKEN_INVALID", "The install link is unknown or was used already");
  }
  const subject = await repo.findInstallSubject(used.domain_id, used.device_id, used.user_id);
  if (!subject?.aes_key) throw new AppError("TOKEN_INVALID", "The router of this link has no key");
  values.IDENT = subject.ident;
  values.KEY = subject.aes_key;
  return {
    script: fillInstallScript(template, values),
    actor: { id: used.user_id, username: subject.username, domainId: used.domain_id },
    device: { id: used.device_id, name: subject.ident },
  };
}

let packageBuild: Promise<Buffer> | null = null;

/**
 * The agent's .ipk, built once per process from agents/openwrt (build-ipk.sh, the same files the
 * SDK Makefile installs), so the console serves exactly the agent it was shipped with.
 */
export function agentPackage(): Promise<Buffer> {
  packageBuild ??= (async () => {
    const out = await mkdtemp(path.join(tmpdir(), "cellfleet-ipk-"));
    try {
      const { stdout } = await promisify(execFile)("sh", [path.join(AGENT_DIR, "build-ipk.sh"), out]);
      return await readFile(stdout.trim());
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  })();
  packageBuild.catch(() => {
    packageBuild = null;
  });
  return packageBuild;
}
