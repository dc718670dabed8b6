import { z } from "zod";
import { RecordIdSchema } from "../files";
import { PASSWORD_MAX_LENGTH } from "../policy";
import { PluginSchema } from "../roles";
import { CreateDomainSchema, DomainListItemSchema, UserSchema } from "../users";
import { EmailSchema, PhoneSchema, TinSchema } from "../validators/contact";
import { RequiredTextSchema, UsernameSchema } from "../validators/text";
import { optionalBlankAsNull } from "./optional";

// Domains, their admins and the superusers (spec sections 2, 3 and 6). Superusers only.

/** An optional text: absent, null or blank becomes null. */
function blankAsNull<T extends z.ZodType>(schema: T) {
  return z.preprocess(
    (value) => (value === undefined || (typeof value === "string" && value.trim() === "") ? null : value),
    schema.nullable(),
  );
}

/** POST /api/domains/: the domains list; `search` covers email, full name, manager, name and TIN. */
export const DomainListRequestSchema = z.object({
  search: z.string().trim().max(255).optional(),
  limit: z.number().int().min(1).max(10_000).default(1000),
  offset: z.number().int().min(0).default(0),
});
/** Body of POST /api/domains/. */
export type DomainListRequest = z.infer<typeof DomainListRequestSchema>;

/** Answer of POST /api/domains/: rows sorted by name and the total that matched the search. */
export const DomainListAnswerSchema = z.object({
  items: z.array(DomainListItemSchema),
  total: z.number().int(),
});
/** Answer of POST /api/domains/. */
export type DomainListAnswer = z.infer<typeof DomainListAnswerSchema>;

/**
 * POST /api/domain/{domain_id} (empty body reads; fields update) and POST /api/domains/new (create):
 * the domain with its device counts, its policy's name and its admins.
 */
export const DomainDetailSchema = DomainListItemSchema.extend({
  policy: z.object({ _id: z.string(), name: z.string() }).nullable(),
  admins: z.array(UserSchema),
});
/** A domain as its page shows it. */
export type DomainDetail = z.infer<typeof DomainDetailSchema>;

/** Body of POST /api/domains/new. DOMAIN_ALREADY_EXIST when the name is taken. */
export const CreateDomainBodySchema = CreateDomainSchema;
/** Body of POST /api/domain/{domain_id}: any field of the create body; no field reads the domain. */
export const UpdateDomainBodySchema = z
  .object({
    name: RequiredTextSchema,
    full_name: RequiredTextSchema,
    tin: TinSchema,
    email: optionalBlankAsNull(EmailSchema),
    phone: optionalBlankAsNull(PhoneSchema),
    manager: optionalBlankAsNull(RequiredTextSchema),
    policy_id: RecordIdSchema.nullable(),
    device_limit: z.number().int().min(0).nullable(),
  })
  .partial();
/** Body of POST /api/domain/{domain_id}. */
export type UpdateDomainBody = z.infer<typeof UpdateDomainBodySchema>;

/**
 * Body creating a domain admin (POST /api/domain/{domain_id}/admins/new) or a superuser
 * (POST /api/superuser/new): the role is implied by the path. The password is judged by checkPassword.
 */
export const CreateManagerSchema = z.object({
  username: UsernameSchema,
  full_name: RequiredTextSchema,
  email: blankAsNull(EmailSchema),
  phone: blankAsNull(PhoneSchema),
  policy_id: RecordIdSchema.nullable().default(null),
  plugins: z.array(PluginSchema).optional(),
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
});
/** Body creating a domain admin or a superuser. */
export type CreateManager = z.infer<typeof CreateManagerSchema>;

/**
 * Body changing a domain admin (POST /api/domain/{domain_id}/admins/{user_id}) or a superuser
 * (POST /api/superuser/{user_id}); no field reads. A `password` sets a new one the person must change
 * at the next sign-in; `blocked: false` also lifts a temporary or attempts block.
 */
export const UpdateManagerSchema = z
  .object({
    username: UsernameSchema,
    full_name: RequiredTextSchema,
    email: optionalBlankAsNull(EmailSchema),
    phone: optionalBlankAsNull(PhoneSchema),
    policy_id: RecordIdSchema.nullable(),
    plugins: z.array(PluginSchema),
    password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
    blocked: z.boolean(),
  })
  .partial();
/** Body changing a domain admin or a superuser. */
export type UpdateManager = z.infer<typeof UpdateManagerSchema>;

/** POST /api/superusers/: every superuser (`search` over username, full name, email). */
export const SuperuserListRequestSchema = z.object({ search: z.string().trim().max(255).optional() });
/** Answer of POST /api/superusers/ and of a domain's admins list. */
export const ManagerListAnswerSchema = z.object({ items: z.array(UserSchema) });
