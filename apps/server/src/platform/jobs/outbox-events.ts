// The outbox events services emit (`ctx.jobs.emit(trx, event, payload)`, ADR 007) and what their
// payloads hold. Emitters and subscribers both read them here, so neither imports the other: ingest
// does not know who listens to a router connecting, and notifications does not reach into ingest.

/** Event names. */
export const OUTBOX_EVENTS = {
  /** An ingest batch committed hellos (routers that connected) or new events. */
  deviceReported: "device.reported",
  /** The status sweep stored devices' new statuses. */
  deviceStatusChanged: "device.status_changed",
  /** A person acted on devices: edited, deleted, sent a command (the commands module emits it too). */
  deviceUserAction: "device.user_action",
  /** Routers were created, deleted or given another key: the broker's accounts follow (MQTT_DYNSEC). */
  deviceCredentialsChanged: "device.credentials_changed",
  /** A sign-in met an expired password (blocked, or a new one mailed). */
  userPasswordExpired: "user.password_expired",
  /** A password was reset: by the e-mailed code, or replaced by a mailed new one. */
  userPasswordReset: "user.password_reset",
} as const;

/** `device.reported`: ids only; the subscriber reads the rows (they are committed with the event). */
export interface DeviceReportedPayload {
  /** Devices that said hello in the batch. */
  connected: string[];
  /** Events the batch inserted. */
  events: string[];
}

/** `device.status_changed`: each device's stored status before and after. */
export interface DeviceStatusChangedPayload {
  changes: Array<{ device_id: string; from: string; to: string }>;
}

/**
 * `device.user_action`: who did what to which devices. The devices are named in the payload because
 * a deleted one is gone by the time a subscriber runs. `action` is edit, delete or command (with the
 * command's type in `detail`).
 */
export interface DeviceUserActionPayload {
  domain_id: string;
  action: "edit" | "delete" | "command";
  author_id: string | null;
  author: string;
  detail?: string;
  devices: Array<{ id: string; ident: string; tags: string[] }>;
}

/** `user.password_expired` and `user.password_reset`. */
export interface UserPasswordPayload {
  user_id: string;
}

/** `device.credentials_changed`: the idents whose broker account must match the database again. */
export interface DeviceCredentialsChangedPayload {
  idents: string[];
}

/**
 * Every outbox event and its payload, by name: `emit` and `subscribe` take declared events only,
 * and a payload that does not fit its event is a compile error. The platform's events are here;
 * a module that owns an event merges it in beside its emitter (`file.uploaded`, `device.deleted`,
 * `rollout.paused`).
 */
export interface OutboxPayloads {
  "device.reported": DeviceReportedPayload;
  "device.status_changed": DeviceStatusChangedPayload;
  "device.user_action": DeviceUserActionPayload;
  "device.credentials_changed": DeviceCredentialsChangedPayload;
  "user.password_expired": UserPasswordPayload;
  "user.password_reset": UserPasswordPayload;
}

/** A declared outbox event. */
export type OutboxEvent = keyof OutboxPayloads & string;
