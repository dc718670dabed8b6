import { z } from "zod";
import { envelopeShape, MAX_DEVICE_TIME_MS } from "./fields";

/** A tunnel session id as the protocol carries it (also the SSH user name the router signs in with). */
export const TUNNEL_SESSION_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

/**
 * `tunnel_open` (server → device, on `cellfleet/v1/{ident}/tunnel`; ADR 038): dial out to the console's
 * SSH endpoint and forward one port back. The router signs in as `user` with `password` (single-use,
 * valid until `expires`), accepts only the pinned `host_key`, asks for one remote forward to
 * 127.0.0.1:`target_port`, and (a terminal) authorises `public_key` (the session's own key) on its
 * sshd while the tunnel stands.
 */
export const TunnelOpenMessageSchema = z.object({
  ...envelopeShape,
  type: z.literal("tunnel_open"),
  session: z.string().regex(TUNNEL_SESSION_PATTERN),
  kind: z.enum(["terminal", "web"]),
  /** The console's SSH endpoint, as the router reaches it. */
  host: z.string().min(1).max(253),
  port: z.int().min(1).max(65535),
  user: z.string().regex(TUNNEL_SESSION_PATTERN),
  /** Single-use: the endpoint takes it once, before `expires`. */
  password: z.string().min(16).max(128),
  /** The endpoint's public host key, OpenSSH form (`ssh-ed25519 AAAA…`): the only key accepted. */
  host_key: z.string().min(16).max(1024),
  /** The port on the router the forward reaches: its sshd (terminal) or its web server (web). */
  target_port: z.int().min(1).max(65535),
  /**
   * The session's public key (OpenSSH form), authorised on the router's sshd for this session only;
   * a terminal's only (a web session reaches the router's web server, not its sshd).
   */
  public_key: z.string().min(16).max(1024).optional(),
  /** The password is refused after this time, ms since the epoch. */
  expires: z.int().min(0).max(MAX_DEVICE_TIME_MS),
});
/** A `tunnel_open` payload. */
export type TunnelOpenMessage = z.infer<typeof TunnelOpenMessageSchema>;
