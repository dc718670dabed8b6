import type { FastifyRequest } from "fastify";
import type { DeviceCookie } from "./sign-in-throttle";

/** The cookies of a `Cookie` header by name (the device cookies of ADR 016 are all sign-in reads). */
export function readCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (header ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at <= 0) continue;
    const name = part.slice(0, at).trim();
    if (!/^[A-Za-z0-9_-]+$/.test(name)) continue;
    cookies[name] = part.slice(at + 1).trim();
  }
  return cookies;
}

/** Whether the browser reaches us over HTTPS: directly, or through a TLS proxy PUBLIC_URL names. */
export function isSecure(request: FastifyRequest, publicUrl: string): boolean {
  return request.protocol === "https" || publicUrl.startsWith("https:");
}

/**
 * The Set-Cookie value of a device cookie: sent back only to the sign-in path, never readable by
 * scripts, never sent by another site's page; Secure over HTTPS (a plain-HTTP LAN install keeps it).
 */
export function deviceCookieHeader(cookie: DeviceCookie, secure: boolean): string {
  const parts = [
    `${cookie.name}=${cookie.value}`,
    "Path=/api/login",
    `Max-Age=${cookie.maxAgeSeconds}`,
    "HttpOnly",
    "SameSite=Strict",
  ];
  if (secure) parts.push("Secure");
  return parts.join("; ");
}
