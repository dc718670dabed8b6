import type { Device, SessionUser } from "@cellfleet/contract";

/** A signed-in domain admin, for tests that need a session in the store. */
export const TEST_USER = {
  token: "tok-1",
  _id: "u1",
  username: "admin",
  role: 2,
  is_junior: false,
  name: "Admin",
  domain_name: "d",
  plugins: [],
  factory_password: false,
  password_expire_date: null,
  email: null,
  is_demo: false,
} satisfies SessionUser;

/** Device number `n` as the list answers it (ident R0001…), with `patch` over the defaults. */
export function testDevice(n: number, patch: Partial<Device> = {}): Device {
  return {
    _id: `id-${n}`,
    ident: `R${String(n).padStart(4, "0")}`,
    description: `router ${n}`,
    tags: ["north"],
    board: { model: "RUT955" },
    firmware: "7.1",
    serial: null,
    time: null,
    connected: null,
    connection_time: null,
    status: "pending",
    events: 0,
    signal: { csq: 22, quality: "excellent" },
    network_mode: "LTE",
    wan_up: true,
    has_backups: false,
    has_journals: false,
    has_key: true,
    create_time: 0,
    position: null,
    meta: {},
    ...patch,
  };
}
