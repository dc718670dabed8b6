import { z } from "zod";

// What each audited call did, in words (issue 27 item 14): the log keeps the method and section
// (`POST_command`, spec section 3) and, beside it, the kind of the deed and the object it touched,
// which the console words in Russian and English. One table, read by the server's audit log (which
// kind a route records, where its object's id comes from) and by its tests (every saving route
// has an entry; every kind has its texts).

/** The kinds of object an audit entry names. */
export const AUDIT_OBJECT_TYPES = [
  "user",
  "device",
  "domain",
  "policy",
  "event",
  "job",
  "rule",
  "transport",
  "delivery",
  "file",
  "command",
  "commandType",
  "script",
  "template",
  "software",
  "rollout",
  "sim",
  "tag",
  "settings",
  "eventType",
  "licence",
  "schedule",
  "zeroTouch",
  "adoption",
  "registration",
  "apiToken",
  "tunnel",
] as const;
/** A kind of object an audit entry names. */
export type AuditObjectType = (typeof AUDIT_OBJECT_TYPES)[number];

/**
 * Where a route's object id is found: a path parameter; the answer (its `_id`, its item's, or how
 * many it made); a field of the body (an array gives how many); the caller (`self`); the caller's
 * domain (`domain`).
 */
export type AuditIdSource = `param:${string}` | "answer" | `body:${string}` | "self" | "domain";

/** One audited route: the kind of its deed, the object's type, and where its id comes from. */
export interface AuditRoute {
  readonly kind: string;
  readonly object: AuditObjectType;
  readonly id: AuditIdSource;
}

const r = (kind: string, object: AuditObjectType, id: AuditIdSource): AuditRoute => ({ kind, object, id });

/** Every audited route (`METHOD /api/path` as Fastify registers it) and what it records. */
export const AUDIT_ROUTES: Readonly<Record<string, AuditRoute>> = {
  "POST /api/login/": r("session.signIn", "user", "self"),
  "POST /api/logout/": r("session.signOut", "user", "self"),
  "POST /api/login/second-factor": r("session.secondFactor", "user", "self"),
  "POST /api/profile/second-factor/totp/start": r("secondFactor.totpStart", "user", "self"),
  "POST /api/profile/second-factor/totp/confirm": r("secondFactor.totpConfirm", "user", "self"),
  "DELETE /api/profile/second-factor/totp": r("secondFactor.totpRemove", "user", "self"),
  "POST /api/profile/second-factor/passkey/options": r("secondFactor.passkeyStart", "user", "self"),
  "POST /api/profile/second-factor/passkey": r("secondFactor.passkeyAdd", "user", "self"),
  "DELETE /api/profile/second-factor/passkey/:passkeyId": r("secondFactor.passkeyRemove", "user", "self"),
  "POST /api/profile/second-factor/recovery-codes": r("secondFactor.recoveryCodes", "user", "self"),
  "POST /api/user/:userId/second-factor/reset": r("secondFactor.reset", "user", "param:userId"),
  "POST /api/registry/code": r("registration.code", "registration", "body:email"),
  "POST /api/registry": r("registration.create", "registration", "body:email"),
  "POST /api/password/forgot": r("password.forgot", "user", "self"),
  "POST /api/password/reset": r("password.reset", "user", "self"),
  "POST /api/profile": r("profile.edit", "user", "self"),
  "POST /api/devices/new": r("device.create", "device", "answer"),
  "POST /api/devices/bulk": r("device.createMany", "device", "answer"),
  "POST /api/devices/import/:plan": r("device.import", "device", "answer"),
  "POST /api/devices/multiple": r("device.editMany", "device", "body:targets"),
  "POST /api/device/:dev_id/edit": r("device.edit", "device", "param:dev_id"),
  "DELETE /api/device/:dev_id": r("device.delete", "device", "param:dev_id"),
  "POST /api/device/:dev_id/key": r("device.key", "device", "param:dev_id"),
  "POST /api/device/:dev_id/install": r("device.installLink", "device", "param:dev_id"),
  // Fetched by the router without a session: recorded under the user who made the link (ADR 034).
  "GET /api/agent/install.sh": r("device.installUsed", "device", "answer"),
  "POST /api/events/read": r("event.read", "event", "body:ids"),
  "POST /api/domains/new": r("domain.create", "domain", "answer"),
  "POST /api/domain/:domainId": r("domain.edit", "domain", "param:domainId"),
  "POST /api/domain/:domainId/admins/new": r("admin.create", "user", "answer"),
  "POST /api/domain/:domainId/admins/:userId": r("admin.edit", "user", "param:userId"),
  "DELETE /api/domain/:domainId/admins/:userId": r("admin.delete", "user", "param:userId"),
  "POST /api/user/new": r("user.create", "user", "answer"),
  "POST /api/user/:userId": r("user.edit", "user", "param:userId"),
  "DELETE /api/user/:userId": r("user.delete", "user", "param:userId"),
  "POST /api/superuser/new": r("superuser.create", "user", "answer"),
  "POST /api/superuser/:userId": r("superuser.edit", "user", "param:userId"),
  "DELETE /api/superuser/:userId": r("superuser.delete", "user", "param:userId"),
  "POST /api/policy/new": r("policy.create", "policy", "answer"),
  "POST /api/policy/:policyId": r("policy.edit", "policy", "param:policyId"),
  "POST /api/policy/:policyId/dictionary/:kind": r("policy.dictionary", "policy", "param:policyId"),
  "POST /api/job/:jobId/retry": r("job.retry", "job", "param:jobId"),
  "POST /api/notifications/rule/new": r("rule.create", "rule", "answer"),
  "PUT /api/notifications/rule/:id": r("rule.edit", "rule", "param:id"),
  "PATCH /api/notifications/rule/:id": r("rule.toggle", "rule", "param:id"),
  "DELETE /api/notifications/rule/:id": r("rule.delete", "rule", "param:id"),
  "POST /api/notifications/transport/new": r("transport.create", "transport", "answer"),
  "POST /api/notifications/transport/test": r("transport.test", "transport", "body:transport_id"),
  "POST /api/notifications/transport/chats": r("transport.chats", "transport", "body:transport_id"),
  "PUT /api/notifications/transport/:id": r("transport.edit", "transport", "param:id"),
  "DELETE /api/notifications/transport/:id": r("transport.delete", "transport", "param:id"),
  "POST /api/notifications/delivery/:id/resend": r("delivery.resend", "delivery", "param:id"),
  "POST /api/file/:kind": r("file.upload", "file", "answer"),
  "POST /api/upload": r("file.upload", "file", "answer"),
  "POST /api/upload/:file_type": r("file.upload", "file", "answer"),
  "POST /api/files/:fileId": r("file.edit", "file", "param:fileId"),
  "DELETE /api/file/many": r("file.deleteMany", "file", "body:targets"),
  "DELETE /api/file/:fileId": r("file.delete", "file", "param:fileId"),
  "POST /api/command/new": r("command.create", "command", "answer"),
  "POST /api/command/:command_id/approve": r("command.approve", "command", "param:command_id"),
  "POST /api/command/:command_id/decline": r("command.decline", "command", "param:command_id"),
  "POST /api/command/:command_id/cancel": r("command.cancel", "command", "param:command_id"),
  "POST /api/command/:command_id/retry-failed": r("command.retryFailed", "command", "param:command_id"),
  "POST /api/command_type": r("commandType.save", "commandType", "answer"),
  "DELETE /api/command_type/:id": r("commandType.delete", "commandType", "param:id"),
  "POST /api/script/new": r("script.create", "script", "answer"),
  "POST /api/script/:id/save": r("script.save", "script", "param:id"),
  "DELETE /api/script/:id": r("script.delete", "script", "param:id"),
  "POST /api/template/new": r("template.create", "template", "answer"),
  "POST /api/template/:id/save": r("template.save", "template", "param:id"),
  "DELETE /api/template/:id": r("template.delete", "template", "param:id"),
  "POST /api/software/new": r("software.create", "software", "answer"),
  "POST /api/software/:id/save": r("software.save", "software", "param:id"),
  "POST /api/software/:id/sync": r("software.sync", "software", "param:id"),
  "DELETE /api/software/:id": r("software.delete", "software", "param:id"),
  "POST /api/software/:id/rollout": r("software.rollout", "software", "param:id"),
  "POST /api/rollout/:rollout_id/pause": r("rollout.pause", "rollout", "param:rollout_id"),
  "POST /api/rollout/:rollout_id/resume": r("rollout.resume", "rollout", "param:rollout_id"),
  "POST /api/rollout/:rollout_id/cancel": r("rollout.cancel", "rollout", "param:rollout_id"),
  "POST /api/rollout/:rollout_id/retry": r("rollout.retry", "rollout", "param:rollout_id"),
  "POST /api/rollout/:rollout_id/accept": r("rollout.accept", "rollout", "param:rollout_id"),
  "POST /api/rollout/:rollout_id/decline": r("rollout.decline", "rollout", "param:rollout_id"),
  "POST /api/sim/:iccid/plan": r("sim.plan", "sim", "param:iccid"),
  "POST /api/plans/tag": r("tag.plan", "tag", "body:tag"),
  "PATCH /api/settings/domains-all": r("settings.save", "settings", "domain"),
  "PATCH /api/event_type/:id": r("eventType.toggle", "eventType", "param:id"),
  "POST /api/licenses/new": r("licence.add", "licence", "answer"),
  "POST /api/tokens/new": r("apiToken.create", "apiToken", "answer"),
  "DELETE /api/tokens/:tokenId": r("apiToken.revoke", "apiToken", "param:tokenId"),
  "DELETE /api/tokens/domain/:tokenId": r("apiToken.revokeDomain", "apiToken", "param:tokenId"),
  "POST /api/licenses/update": r("licence.refresh", "licence", "body:id"),
  "POST /api/licenses/upload": r("licence.upload", "licence", "answer"),
  "POST /api/crontab/:class": r("schedule.create", "schedule", "answer"),
  "PUT /api/crontab/:class/:id": r("schedule.edit", "schedule", "param:id"),
  "PATCH /api/crontab/:class/:id": r("schedule.toggle", "schedule", "param:id"),
  "POST /api/uptime/mail-rule": r("schedule.createUptimeMail", "schedule", "answer"),
  "DELETE /api/uptime/mail-rule/:id": r("schedule.deleteUptimeMail", "schedule", "param:id"),
  "POST /api/zerotouch/config/new": r("zeroTouch.create", "zeroTouch", "answer"),
  "POST /api/zerotouch/config/:id/save": r("zeroTouch.save", "zeroTouch", "param:id"),
  "POST /api/zerotouch/config/:id/secret": r("zeroTouch.secret", "zeroTouch", "param:id"),
  "DELETE /api/zerotouch/config/:id": r("zeroTouch.delete", "zeroTouch", "param:id"),
  "POST /api/zerotouch/adoption/:id/accept": r("adoption.accept", "adoption", "param:id"),
  "POST /api/zerotouch/adoption/:id/reject": r("adoption.reject", "adoption", "param:id"),
  "POST /api/tunnels": r("tunnel.request", "tunnel", "answer"),
  "POST /api/tunnel/:id/approve": r("tunnel.approve", "tunnel", "param:id"),
  "POST /api/tunnel/:id/refuse": r("tunnel.refuse", "tunnel", "param:id"),
  "POST /api/tunnel/:id/end": r("tunnel.end", "tunnel", "param:id"),
  "POST /api/tunnel/:id/web": r("tunnel.web", "tunnel", "param:id"),
};

/** Kinds the gateway records itself, with no route: a router joined or waits by zero touch. */
export const AUDIT_GATEWAY_KINDS = ["zeroTouch.join", "zeroTouch.wait"] as const;

/** Every kind of audit entry, each with its texts in both languages. */
export const AUDIT_KINDS: readonly string[] = [
  ...new Set([...Object.values(AUDIT_ROUTES).map((route) => route.kind), ...AUDIT_GATEWAY_KINDS]),
];

/** The object of an audit entry: its type, and its id, name or count as far as the call showed them. */
export const AuditObjectSchema = z.object({
  type: z.enum(AUDIT_OBJECT_TYPES),
  id: z.string().nullable(),
  name: z.string().nullable(),
  /** How many objects, for a call on several. */
  count: z.number().int().nullable(),
});
/** The object of an audit entry. */
export type AuditObject = z.infer<typeof AuditObjectSchema>;
