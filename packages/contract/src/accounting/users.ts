import { z } from "zod";
import { mayBeJunior } from "../account-roles";
import { DeviceTagsSchema } from "../devices";
import { RecordIdSchema } from "../files";
import { PASSWORD_MAX_LENGTH } from "../policy";
import { PluginSchema, RoleSchema } from "../roles";
import { mayHaveTagScope } from "../tag-scope";
import { CreateUserSchema, UserSchema } from "../users";
import { EmailSchema, PhoneSchema } from "../validators/contact";
import { RequiredTextSchema, UsernameSchema } from "../validators/textSchemas";
import { optionalBlankAsNull } from "./optional";

// The users list and user page of spec sections 2 and 6.

/** A user as the accounting screens show it: the stored user plus its domain id and plugins. */
export const AccountingUserSchema = UserSchema.extend({
  domain_id: z.string().nullable(),
  plugins: z.array(PluginSchema),
  /** Until when a temporary block lasts (ms since the epoch); null when none. */
  blocked_until: z.number().nullable(),
  /** When the password expires (ms since the epoch); null when never. */
  password_expire_date: z.number().nullable(),
  /** Only routers carrying one of these tags are the user's (ADR 041); empty: all of the domain. */
  tag_scope: z.array(z.string()),
});
/** A user on the accounting screens. */
export type AccountingUser = z.infer<typeof AccountingUserSchema>;

/** A tag scope as a body carries it: valid tags, at most 50 (as a router's), duplicates merged. */
export const TagScopeBodySchema = DeviceTagsSchema;

/**
 * POST /api/users/: the users list. A superuser sees every user, or one domain's with `domain_id`;
 * admins and helpers see their own domain's. `role` narrows to one role; `search` covers username,
 * full name and email. Without the caller's accounting plugin every row's `policy` is null.
 */
export const UserListRequestSchema = z.object({
  search: z.string().trim().max(255).optional(),
  domain_id: z.string().optional(),
  role: RoleSchema.optional(),
});
/** Body of POST /api/users/. */
export type UserListRequest = z.infer<typeof UserListRequestSchema>;

/** Answer of POST /api/users/ (sorted by username). */
export const UserListAnswerSchema = z.object({ items: z.array(AccountingUserSchema) });
/** Answer of POST /api/users/. */
export type UserListAnswer = z.infer<typeof UserListAnswerSchema>;

/**
 * Body of POST /api/user/new (superuser or admin only). Roles 2-4; `is_junior` only with role 3 (the
 * junior assistant). A superuser names the domain with `domain_id`; an admin's users join its domain.
 * USERNAME_EXISTED when the username is taken; USER_ALREADY_EXIST when the email is.
 */
export const CreateAccountingUserSchema = CreateUserSchema.extend({
  domain_id: z.string().optional(),
  plugins: z.array(PluginSchema).optional(),
  /** Limits an assistant, a junior or an operator to routers with one of these tags (ADR 041). */
  tag_scope: TagScopeBodySchema.optional(),
})
  .refine((user) => !user.is_junior || mayBeJunior(user.role), {
    message: "is_junior: only a helper (role 3) can be a junior assistant",
    path: ["is_junior"],
  })
  .refine((user) => !user.tag_scope?.length || mayHaveTagScope(user.role), {
    message: "tag_scope: only assistants, juniors and operators can be limited to tags",
    path: ["tag_scope"],
  });
/** Body of POST /api/user/new. */
export type CreateAccountingUser = z.infer<typeof CreateAccountingUserSchema>;

/**
 * Body of POST /api/user/{user_id}: no field reads the user; fields change it. A `password` set by
 * someone else is a factory password (changed at the next sign-in); a helper may change only its own
 * password and only operators. USER_NOT_FOUND for an unknown or another domain's user, USER_REMOVED
 * for a deleted one.
 */
export const UpdateAccountingUserSchema = z
  .object({
    username: UsernameSchema,
    full_name: RequiredTextSchema,
    role: RoleSchema,
    is_junior: z.boolean(),
    email: optionalBlankAsNull(EmailSchema),
    phone: optionalBlankAsNull(PhoneSchema),
    policy_id: RecordIdSchema.nullable(),
    blocked: z.boolean(),
    plugins: z.array(PluginSchema),
    tag_scope: TagScopeBodySchema,
    password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  })
  .partial();
/** Body of POST /api/user/{user_id}. */
export type UpdateAccountingUser = z.infer<typeof UpdateAccountingUserSchema>;
