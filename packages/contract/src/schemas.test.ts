import { describe, expect, it } from "vitest";
import {
  CALENDAR_WEEK_SECONDS,
  CreateDomainSchema,
  CreateUserSchema,
  DEFAULT_DOMAIN_SETTINGS,
  DEFAULT_LOCALE,
  DomainSchema,
  DomainSettingsSchema,
  LOCALES,
  PAGE_SIZE_OPTIONS,
  PASSWORD_CHANGE_BLOCK_MS,
  UPLOAD_MAX_BYTES,
  UserSchema,
} from "./index";

describe("constants", () => {
  it("match spec section 9", () => {
    expect(PAGE_SIZE_OPTIONS).toEqual([10, 50, 100]);
    expect(CALENDAR_WEEK_SECONDS).toBe(7 * 24 * 3600);
    expect(UPLOAD_MAX_BYTES).toBe(26_214_400);
    expect(PASSWORD_CHANGE_BLOCK_MS).toBe(5 * 60_000);
    expect(DEFAULT_LOCALE).toBe("ru");
    expect(LOCALES).toEqual(["ru", "en"]);
  });
});

describe("UserSchema", () => {
  const user = {
    _id: "u1",
    username: "ivanov",
    full_name: "Иван Иванов",
    role: 3,
    is_junior: true,
    email: null,
    phone: "+7 912 345-67-89",
    policy: { _id: "p1", name: "Banking" },
    last_login: null,
    blocked: false,
    factory_password: true,
    domain_name: "acme",
  };

  it("parses a stored user", () => {
    expect(UserSchema.parse(user)).toEqual(user);
    expect(UserSchema.parse({ ...user, policy: null }).policy).toBeNull();
  });

  it("rejects an unknown role", () => {
    expect(UserSchema.safeParse({ ...user, role: 5 }).success).toBe(false);
  });
});

describe("CreateUserSchema", () => {
  it("normalises blank optional fields to null and defaults the rest", () => {
    const parsed = CreateUserSchema.parse({
      username: " petrov ",
      full_name: "Пётр Петров",
      role: 4,
      email: "  ",
      phone: "",
      password: "Secret12",
    });
    expect(parsed).toEqual({
      username: "petrov",
      full_name: "Пётр Петров",
      role: 4,
      is_junior: false,
      email: null,
      phone: null,
      policy_id: null,
      password: "Secret12",
    });
  });

  it("reports the validators' keys", () => {
    const result = CreateUserSchema.safeParse({
      username: "abc",
      full_name: "x",
      role: 2,
      email: "a@b.c",
      password: "x",
    });
    expect(result.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["username", "usernameTooShort"],
      ["email", "emailInvalid"],
    ]);
  });
});

describe("DomainSchema and CreateDomainSchema", () => {
  it("parses a stored domain", () => {
    const domain = {
      _id: "d1",
      name: "acme",
      full_name: "ООО «Акме»",
      tin: "7707083893",
      email: "it@acme.ru",
      phone: null,
      manager: "Сидоров",
      policy_id: null,
      device_limit: null,
      create_time: 1_700_000_000_000,
    };
    expect(DomainSchema.parse(domain)).toEqual(domain);
  });

  it("checks the TIN of a new domain", () => {
    const base = { name: "acme", full_name: "ООО «Акме»", tin: "99999999" };
    expect(CreateDomainSchema.safeParse(base).error?.issues[0]?.message).toBe("tinDigits");
    expect(CreateDomainSchema.parse({ ...base, tin: "100000000", manager: " " }).manager).toBeNull();
  });
});

describe("DomainSettingsSchema", () => {
  it("accepts the defaults", () => {
    expect(DomainSettingsSchema.parse(DEFAULT_DOMAIN_SETTINGS)).toEqual(DEFAULT_DOMAIN_SETTINGS);
  });

  it("takes an IANA time zone and refuses others with the §5 key (UTC by default)", () => {
    expect(DEFAULT_DOMAIN_SETTINGS.time_zone).toBe("UTC");
    for (const zone of ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "UTC"])
      expect(
        DomainSettingsSchema.safeParse({ ...DEFAULT_DOMAIN_SETTINGS, time_zone: zone }).success,
        zone,
      ).toBe(true);
    const message = (zone: unknown) =>
      DomainSettingsSchema.safeParse({ ...DEFAULT_DOMAIN_SETTINGS, time_zone: zone }).error?.issues[0]
        ?.message;
    expect(message("Mars/Olympus")).toBe("timeZoneInvalid");
    expect(message("Europe/Berlin ")).toBe("timeZoneInvalid");
    expect(message("")).toBe("required");
    expect(message(undefined)).toBeDefined();
  });

  it("flags online above pending, and pending above warning, on their own minutes", () => {
    const issues = (online: number, pending: number, warning: number) =>
      DomainSettingsSchema.safeParse({
        ...DEFAULT_DOMAIN_SETTINGS,
        status: [
          { name: "online", minutes: online },
          { name: "pending", minutes: pending },
          { name: "warning", minutes: warning },
        ],
      }).error?.issues.map((issue) => [issue.path.join("."), issue.message]);
    expect(issues(90, 90, 60)).toEqual([["status.1.minutes", "statusMinutesAbovePrevious"]]);
    expect(issues(31, 30, 60)).toEqual([["status.0.minutes", "statusMinutesAbovePrevious"]]);
    expect(issues(15, 30, 60)).toBeUndefined();
    expect(issues(15, 15, 15)).toBeUndefined();
  });

  it("wants every status with minutes exactly once", () => {
    expect(
      DomainSettingsSchema.safeParse({
        ...DEFAULT_DOMAIN_SETTINGS,
        status: [
          { name: "online", minutes: 15 },
          { name: "warning", minutes: 60 },
        ],
      }).success,
    ).toBe(false);
  });

  it("rejects out-of-range minutes and copies, and a repeated status", () => {
    expect(
      DomainSettingsSchema.safeParse({
        ...DEFAULT_DOMAIN_SETTINGS,
        status: [
          { name: "online", minutes: 14 },
          { name: "pending", minutes: 15 },
          { name: "warning", minutes: 60 },
        ],
      }).success,
    ).toBe(false);
    expect(
      DomainSettingsSchema.safeParse({ ...DEFAULT_DOMAIN_SETTINGS, backup: { copies: 101 } }).success,
    ).toBe(false);
    expect(
      DomainSettingsSchema.safeParse({
        ...DEFAULT_DOMAIN_SETTINGS,
        status: [
          { name: "online", minutes: 15 },
          { name: "online", minutes: 20 },
          { name: "warning", minutes: 60 },
        ],
      }).success,
    ).toBe(false);
  });
});
