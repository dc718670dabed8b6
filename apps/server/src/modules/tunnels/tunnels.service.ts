import { randomUUID } from "node:crypto";
import {
  type ApproveTunnel,
  type CreateTunnel,
  needsApproval,
  type Role,
  TUNNEL_OPEN_WITHIN_MINUTES,
  type TunnelEndReason,
  type TunnelSession,
} from "@cellfleet/contract";
import { assertCan, subjectOf } from "../../platform/auth/permissions";
import type { SessionContext } from "../../platform/auth/session-guard";
import { domainTopic } from "../../platform/bus/bus";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import type { FileRead } from "../../platform/storage/file-storage";
import { devicesRepo } from "../devices/devices.repo";
import { requireDeviceDomain, requireDeviceView } from "../devices/devices.service";
import { findDomainRemoteAccess } from "../settings/settings.service";
import { type TunnelRow, tunnelsRepo } from "./tunnels.repo";

// Remote-access sessions (issue 29, ADR 038): asked for, approved or refused (four eyes, as a
// command), ended; each change is pushed to the domain as the `peers` socket message.

/** The bus topic on which a session is told to end, heard by the node that holds it. */
export function tunnelEndTopic(id: string): string {
  return `tunnel-end:${id}`;
}

/** The one mapper of a session row: HTTP answers and `peers` alike. */
export function toTunnelSession(row: TunnelRow): TunnelSession {
  return {
    _id: row.id,
    device_id: row.device_id,
    ident: row.ident,
    kind: row.kind as TunnelSession["kind"],
    state: row.state as TunnelSession["state"],
    minutes: row.minutes,
    author_id: row.author_id,
    author: row.author,
    author_role: row.author_role,
    author_is_junior: row.author_is_junior,
    approver: row.approver,
    create_time: row.created_at.toISOString(),
    open_time: row.opened_at?.toISOString() ?? null,
    end_time: row.ended_at?.toISOString() ?? null,
    end_reason: row.end_reason as TunnelSession["end_reason"],
    bytes_up: Number(row.bytes_up),
    bytes_down: Number(row.bytes_down),
    has_recording: row.has_recording,
  };
}

const authorOf = (row: TunnelRow) => ({
  _id: row.author_id,
  role: row.author_role as Role,
  is_junior: row.author_is_junior,
});

/** Pushes the domain's sessions (`peers`, spec §7): the list with "end now" follows it. */
export async function publishPeers(ctx: AppContext, domainId: string): Promise<void> {
  try {
    const rows = await tunnelsRepo(ctx.db).listSessions(domainId);
    await ctx.bus.publish(domainTopic(domainId), { type: "peers", content: rows.map(toTunnelSession) });
  } catch (error) {
    ctx.log.error({ err: error, domainId }, "publishing the peers message failed");
  }
}

/** The storage key of a session's recording. */
export function recordingKey(id: string): string {
  return `tunnel-${id}`;
}

/**
 * GET /api/tunnel/{id}/recording: an ended terminal session's recording (asciicast v2), for replay in
 * the browser. A session still running, or one that never opened, has none yet: FILE_NOT_FOUND.
 */
export async function openRecording(ctx: AppContext, session: SessionContext, id: string): Promise<FileRead> {
  const row = await requireTunnelOf(ctx, session, id);
  if (row.state !== "ended" || !(await ctx.storage.exists(recordingKey(id)))) {
    throw new AppError("FILE_NOT_FOUND", "This session has no recording");
  }
  return ctx.storage.get(recordingKey(id));
}

/** A session of the caller's domain, or ATUN_SRV_NOT_FOUND (an unknown session link). */
export async function requireTunnel(ctx: AppContext, domainId: string, id: string): Promise<TunnelRow> {
  const row = await tunnelsRepo(ctx.db).findSession(domainId, id);
  if (!row) throw new AppError("ATUN_SRV_NOT_FOUND", "No such remote-access session");
  return row;
}

/** A session of a router the caller sees (its domain, within its tags: ADR 041), or ATUN_SRV_NOT_FOUND. */
export async function requireTunnelOf(
  ctx: AppContext,
  session: SessionContext,
  id: string,
): Promise<TunnelRow> {
  const { domainId, tagScope } = requireDeviceView(session);
  const row = await tunnelsRepo(ctx.db).findSession(domainId, id, tagScope);
  if (!row) throw new AppError("ATUN_SRV_NOT_FOUND", "No such remote-access session");
  return row;
}

/** POST /api/tunnels: an admin's session is approved at once; anybody else's waits for approval. */
export async function createTunnel(
  ctx: AppContext,
  session: SessionContext,
  body: CreateTunnel,
): Promise<TunnelSession> {
  const domainId = requireDeviceDomain(session);
  const device = await devicesRepo(ctx.db).findDevice(domainId, body.device_id);
  if (!device) throw new AppError("DEVICE_NOT_FOUND");
  const limits = await findDomainRemoteAccess(ctx, domainId);
  const id = randomUUID();
  await tunnelsRepo(ctx.db).insertSession(domainId, {
    id,
    deviceId: body.device_id,
    kind: body.kind,
    state: needsApproval(subjectOf(session)) ? "waiting" : "approved",
    minutes: Math.min(body.minutes, limits.max_minutes),
    authorId: session.user.id,
    createdAt: ctx.now(),
  });
  await publishPeers(ctx, domainId);
  return toTunnelSession(await requireTunnel(ctx, domainId, id));
}

/** POST /api/tunnels/list: the sessions of the routers the caller sees not yet over, then the latest ended ones. */
export async function listTunnels(ctx: AppContext, session: SessionContext): Promise<TunnelSession[]> {
  const { domainId, tagScope } = requireDeviceView(session);
  const rows = await tunnelsRepo(ctx.db).listSessions(domainId, tagScope);
  return rows.map(toTunnelSession);
}

/**
 * POST /api/tunnel/{id}/approve: four eyes, as for a command; the approver names the router and
 * the duration (at most what was asked), so an approval cannot be given to something else.
 */
export async function approveTunnel(
  ctx: AppContext,
  session: SessionContext,
  id: string,
  body: ApproveTunnel,
): Promise<TunnelSession> {
  const row = await requireTunnelOf(ctx, session, id);
  const domainId = row.domain_id;
  assertCan(session, "tunnels.approve", authorOf(row));
  if (body.device_id !== row.device_id || body.minutes > row.minutes) {
    throw new AppError("BAD_REQUEST", "The approval names another router or a longer duration");
  }
  const isMoved = await tunnelsRepo(ctx.db).moveState(domainId, id, ["waiting"], {
    state: "approved",
    approverId: session.user.id,
    minutes: body.minutes,
    at: ctx.now(),
  });
  if (!isMoved) throw new AppError("OPERATION_IS_NOT_SUPPORTED", "The session no longer waits for approval");
  await publishPeers(ctx, domainId);
  return toTunnelSession(await requireTunnel(ctx, domainId, id));
}

/** POST /api/tunnel/{id}/refuse: who may approve may refuse. */
export async function refuseTunnel(
  ctx: AppContext,
  session: SessionContext,
  id: string,
): Promise<TunnelSession> {
  const row = await requireTunnelOf(ctx, session, id);
  const domainId = row.domain_id;
  assertCan(session, "tunnels.approve", authorOf(row));
  const isMoved = await tunnelsRepo(ctx.db).moveState(domainId, id, ["waiting"], {
    state: "refused",
    approverId: session.user.id,
    at: ctx.now(),
  });
  if (!isMoved) throw new AppError("OPERATION_IS_NOT_SUPPORTED", "The session no longer waits for approval");
  await publishPeers(ctx, domainId);
  return toTunnelSession(await requireTunnel(ctx, domainId, id));
}

/**
 * Ends a session with `reason`: the row is ended here (so it ends even when its node is gone),
 * and the node holding it hears the bus, closes the tunnel and writes its bytes.
 */
export async function endTunnelSession(
  ctx: AppContext,
  domainId: string,
  id: string,
  reason: TunnelEndReason,
): Promise<boolean> {
  const isMoved = await tunnelsRepo(ctx.db).moveState(domainId, id, ["waiting", "approved", "open"], {
    state: "ended",
    at: ctx.now(),
    endReason: reason,
  });
  if (isMoved) {
    await ctx.bus.publish(tunnelEndTopic(id), { reason });
    await publishPeers(ctx, domainId);
  }
  return isMoved;
}

/** POST /api/tunnel/{id}/end ("end now"): one's own session, or an admin anybody's. */
export async function endTunnel(
  ctx: AppContext,
  session: SessionContext,
  id: string,
): Promise<TunnelSession> {
  const row = await requireTunnelOf(ctx, session, id);
  const domainId = row.domain_id;
  assertCan(session, "tunnels.end", authorOf(row));
  await endTunnelSession(ctx, domainId, id, "ended_by_user");
  return toTunnelSession(await requireTunnel(ctx, domainId, id));
}

/** Whether an approved session may still be opened: within TUNNEL_OPEN_WITHIN_MINUTES of its approval. */
export function isOpenable(row: TunnelRow, now: Date): boolean {
  const approvedAt = row.approved_at ?? row.created_at;
  return (
    row.state === "approved" && now.getTime() - approvedAt.getTime() < TUNNEL_OPEN_WITHIN_MINUTES * 60_000
  );
}
