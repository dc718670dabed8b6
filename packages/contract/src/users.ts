import { z } from "zod";
import { RecordIdSchema } from "./files";
import { PASSWORD_MAX_LENGTH } from "./policy";
import { RoleSchema } from "./roles";
import { EmailSchema, PhoneSchema, TinSchema } from "./validators/contact";
import { RequiredTextSchema, UsernameSchema } from "./validators/text";

// Stored users and domains as the API answers them (spec section 3), and the bodies that create them.

/** An optional field: absent, null or blank becomes null; anything else `schema` judges. */
function blankAsNull<T extends z.ZodType>(schema: T) {
  return z.preprocess(
    (value) => (value === undefined || (typeof value === "string" && value.trim() === "") ? null : value),
    schema.nullable(),
  );
}

/** A stored user as the user list and user page show it (never the password). */
export const UserSchema = z.object({
  _id: z.string(),
  username: z.string(),
  full_name: z.string(),
  role: RoleSchema,
  /** A junior assistant (role 3): its actions need an assistant's or an admin's approval. */
  is_junior: z.boolean(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  /** The user's security policy; null for the domain's default one. */
  policy: z.object({ _id: z.string(), name: z.string() }).nullable(),
  /** Last sign-in, in ms since the epoch; null when never. */
  last_login: z.number().nullable(),
  blocked: z.boolean(),
  /** Whether the user still has the password an administrator set (must change it at sign-in). */
  factory_password: z.boolean(),
  domain_name: z.string().nullable(),
});
/** A stored user. */
export type User = z.infer<typeof UserSchema>;

/**
 * Body that creates a user. Email and phone are optional (blank means none); the password is judged
 * against the user's policy by `checkPassword` in the service, since the policy is not known here.
 */
export const CreateUserSchema = z.object({
  username: UsernameSchema,
  full_name: RequiredTextSchema,
  role: RoleSchema,
  is_junior: z.boolean().default(false),
  email: blankAsNull(EmailSchema),
  phone: blankAsNull(PhoneSchema),
  policy_id: RecordIdSchema.nullable().default(null),
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
});
/** Body that creates a user. */
export type CreateUser = z.infer<typeof CreateUserSchema>;

/** Body that changes a user: any field of {@link CreateUserSchema} but the password, plus `blocked`. */
export const UpdateUserSchema = CreateUserSchema.omit({ password: true })
  .extend({ blocked: z.boolean() })
  .partial();
/** Body that changes a user. */
export type UpdateUser = z.infer<typeof UpdateUserSchema>;

/** A domain (tenant) as the superuser's domain page shows it. */
export const DomainSchema = z.object({
  _id: z.string(),
  name: z.string(),
  full_name: z.string(),
  /** Taxpayer identification number: digits, at least 9 of them. */
  tin: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  manager: z.string().nullable(),
  /** The domain's default security policy. */
  policy_id: z.string().nullable(),
  /** Most devices the domain may hold; null when unlimited. */
  device_limit: z.number().int().min(0).nullable(),
  /** When the domain was created, in ms since the epoch. */
  create_time: z.number(),
});
/** A domain. */
export type Domain = z.infer<typeof DomainSchema>;

/** A row of the domains list: the domain, its last session and its device counts by status. */
export const DomainListItemSchema = DomainSchema.extend({
  /** The latest sign-in of any of its users, in ms since the epoch; null when none. */
  last_session: z.number().nullable(),
  devices: z.object({ online: z.number().int(), warning: z.number().int(), critical: z.number().int() }),
});
/** A row of the domains list. */
export type DomainListItem = z.infer<typeof DomainListItemSchema>;

/** Body that creates a domain (superuser). */
export const CreateDomainSchema = z.object({
  name: RequiredTextSchema,
  full_name: RequiredTextSchema,
  tin: TinSchema,
  email: blankAsNull(EmailSchema),
  phone: blankAsNull(PhoneSchema),
  manager: blankAsNull(RequiredTextSchema),
  policy_id: RecordIdSchema.nullable().default(null),
  device_limit: z.number().int().min(0).nullable().default(null),
});
/** Body that creates a domain. */
export type CreateDomain = z.infer<typeof CreateDomainSchema>;

/** Body that changes a domain: any field of {@link CreateDomainSchema}. */
export const UpdateDomainSchema = CreateDomainSchema.partial();
/** Body that changes a domain. */
export type UpdateDomain = z.infer<typeof UpdateDomainSchema>;
