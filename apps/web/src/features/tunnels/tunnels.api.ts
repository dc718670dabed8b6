import {
  type CreateTunnel,
  type TunnelSession,
  TunnelSessionSchema,
  type TunnelSessions,
  TunnelSessionsSchema,
  type WebTunnelOpen,
  WebTunnelOpenSchema,
} from "@cellfleet/contract";
import { apiRequest } from "../../app/api/http";

/** POST /api/tunnels/list: the domain's sessions not yet over, then the latest ended ones. */
export function getTunnels(signal?: AbortSignal): Promise<TunnelSessions> {
  return apiRequest("POST /api/tunnels/list", { schema: TunnelSessionsSchema, signal });
}

/** POST /api/tunnels: an admin's session is approved at once; anybody else's waits. */
export function requestTunnel(body: CreateTunnel): Promise<TunnelSession> {
  return apiRequest("POST /api/tunnels", { body, schema: TunnelSessionSchema });
}

/** Approves (naming the router and the duration), refuses or ends a session. */
export function decideTunnel(
  session: TunnelSession,
  decision: "approve" | "refuse" | "end",
): Promise<TunnelSession> {
  const params = { id: session._id };
  if (decision === "approve") {
    return apiRequest("POST /api/tunnel/{id}/approve", {
      params,
      body: { device_id: session.device_id, minutes: session.minutes },
      schema: TunnelSessionSchema,
    });
  }
  return apiRequest(decision === "refuse" ? "POST /api/tunnel/{id}/refuse" : "POST /api/tunnel/{id}/end", {
    params,
    schema: TunnelSessionSchema,
  });
}

/** POST /api/tunnel/{id}/web: the web session's own origin and its single-use link, or PEER_NOT_CONNECTED. */
export function openWebTunnel(id: string): Promise<WebTunnelOpen> {
  return apiRequest("POST /api/tunnel/{id}/web", { params: { id }, schema: WebTunnelOpenSchema });
}
