import { z } from "zod";
import { PluginSchema, RoleSchema } from "./roles";

/** POST /api/login/: credentials, or `{ demo: true }` for the read-only demo user. */
export const LoginRequestSchema = z.union([
  z.object({ demo: z.literal(true) }),
  z.object({
    username: z.string().trim().min(1).max(255),
    password: z.string().min(1).max(255),
  }),
]);
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

/** The session user of spec section 3, as POST /api/login/ answers it. */
export const SessionUserSchema = z.object({
  token: z.string(),
  _id: z.string(),
  username: z.string(),
  role: RoleSchema,
  is_junior: z.boolean(),
  name: z.string(),
  domain_name: z.string().nullable(),
  plugins: z.array(PluginSchema),
  factory_password: z.boolean(),
  /** The policy asks for a second factor and the person has none: held on the profile page to enrol (absent: no). */
  second_factor_pending: z.boolean().optional(),
  /** When the password expires, in ms since the epoch; null when it never does. */
  password_expire_date: z.number().nullable(),
  email: z.string().nullable(),
  is_demo: z.boolean(),
});
export type SessionUser = z.infer<typeof SessionUserSchema>;

/** Own profile as POST /api/profile answers it. */
export const ProfileSchema = z.object({
  _id: z.string(),
  username: z.string(),
  full_name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  role: RoleSchema,
  domain_name: z.string().nullable(),
  factory_password: z.boolean(),
  password_expire_date: z.number().nullable(),
  last_login: z.number().nullable(),
});
export type Profile = z.infer<typeof ProfileSchema>;

/**
 * POST /api/profile: with no fields it reads the profile; with fields it changes them.
 * A password change needs the current password, the new one and its confirmation.
 */
export const ProfileUpdateSchema = z.object({
  full_name: z.string().trim().min(1).max(255).optional(),
  email: z.string().trim().max(255).nullable().optional(),
  phone: z.string().trim().max(24).nullable().optional(),
  password: z
    .object({
      current: z.string().min(1).max(255),
      new: z.string().min(1).max(255),
      confirm: z.string().min(1).max(255),
    })
    .optional(),
});
export type ProfileUpdate = z.infer<typeof ProfileUpdateSchema>;

/** GET /api/health. */
export const HealthSchema = z.object({
  status: z.literal("ok"),
  version: z.string(),
  schema_version: z.string(),
  database: z.enum(["pglite", "postgres"]),
});
export type Health = z.infer<typeof HealthSchema>;
