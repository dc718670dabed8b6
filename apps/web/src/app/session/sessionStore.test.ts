import type { SessionUser } from "@cellfleet/contract";
import { afterEach, describe, expect, it } from "vitest";
import { SESSION_STORAGE_KEY, sessionStore } from "./sessionStore";

// A user as POST /api/login/ answers it.
const user: SessionUser = {
  token: "t0ken",
  _id: "18d60e73-118a-4787-aeeb-8ac5f2d1593e",
  username: "root",
  role: 1,
  is_junior: false,
  name: "Root",
  domain_name: null,
  plugins: ["notification", "accounting", "keychain"],
  factory_password: true,
  password_expire_date: null,
  email: null,
  is_demo: false,
};

function stored(value: unknown): SessionUser | null {
  localStorage.setItem(SESSION_STORAGE_KEY, typeof value === "string" ? value : JSON.stringify(value));
  sessionStore.reload();
  return sessionStore.get();
}

describe("the stored session", () => {
  afterEach(() => sessionStore.clear());

  it("keeps a user as the server answers it across a reload", () => {
    sessionStore.set(user);
    sessionStore.reload();
    expect(sessionStore.get()).toEqual(user);
  });

  it("drops what is not a stored user: no token, a role that is not a number, no plugins, not JSON", () => {
    expect(stored({ ...user, token: undefined })).toBeNull();
    expect(stored({ ...user, role: "1" })).toBeNull();
    expect(stored({ ...user, plugins: "all" })).toBeNull();
    expect(stored("{not json")).toBeNull();
    expect(stored(null)).toBeNull();
  });
});
