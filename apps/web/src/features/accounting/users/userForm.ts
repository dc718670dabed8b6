import {
  allowEmpty,
  checkPasswordConfirmation,
  DEFAULT_POLICY,
  mayBeJunior,
  mayHaveTagScope,
  mayOffer,
  type PasswordRules,
  type PermissionSubject,
  type Plugin,
  type Role,
  type UpdateAccountingUser,
  validateEmail,
  validatePassword,
  validatePhone,
} from "@cellfleet/contract";

/** What a person may do on a user page: everything, only set its own password, or look. */
export type UserFormMode = "full" | "selfPassword" | "readOnly";

/**
 * The mode of the user page for a viewer (spec section 6), by the permission table: a new user
 * needs `users.create`, another user `users.edit` for its role; on its own record a viewer who may
 * not edit its own role changes only its password.
 */
export function userFormMode(
  viewer: PermissionSubject,
  target: { role: Role; _id: string } | null,
): UserFormMode {
  if (target === null) return mayOffer(viewer, "users.create") ? "full" : "readOnly";
  const mayEdit = mayOffer(viewer, "users.edit", { role: target.role });
  if (viewer._id === target._id) return mayEdit ? "full" : "selfPassword";
  return mayEdit ? "full" : "readOnly";
}

const DOMAIN_ROLES: readonly Role[] = [2, 3, 4];

/** The domain roles a viewer may give: those the table lets it edit (helpers: only operator). */
export function assignableRoles(viewer: PermissionSubject): Role[] {
  return DOMAIN_ROLES.filter((role) => mayOffer(viewer, "users.edit", { role }));
}

/** The user form's values. */
export interface UserFormValues {
  username: string;
  full_name: string;
  role: Role | "";
  is_junior: boolean;
  email: string;
  phone: string;
  /** "" for the domain's default policy. */
  policy_id: string;
  domain_id: string;
  plugins: Plugin[];
  /** Routers carrying one of these tags only (ADR 041); empty: all of the domain. */
  tag_scope: string[];
  password: string;
  confirm: string;
  blocked: boolean;
}

/** The fields of a stored user the form edits. */
export interface EditableUser {
  username: string;
  full_name: string;
  role: Role;
  is_junior?: boolean;
  email: string | null;
  phone: string | null;
  policy: { _id: string } | null;
  domain_id?: string | null;
  plugins?: Plugin[];
  tag_scope?: string[];
  blocked: boolean;
}

/** Form values of a stored user, or empty ones for a new user. */
export function toUserForm(
  user: EditableUser | null,
  defaults: Partial<UserFormValues> = {},
): UserFormValues {
  return {
    username: user?.username ?? "",
    full_name: user?.full_name ?? "",
    role: user?.role ?? "",
    is_junior: user?.is_junior ?? false,
    email: user?.email ?? "",
    phone: user?.phone ?? "",
    policy_id: user?.policy?._id ?? "",
    domain_id: user?.domain_id ?? "",
    plugins: user?.plugins ?? [],
    tag_scope: user?.tag_scope ?? [],
    password: "",
    confirm: "",
    blocked: user?.blocked ?? false,
    ...defaults,
  };
}

/** Which optional parts of the form are in play. */
export interface UserFormShape {
  isNew: boolean;
  hasRole: boolean;
  hasDomain: boolean;
  hasPolicy: boolean;
  hasPlugins: boolean;
  /** The viewer may limit people to tags (users.limitTags). */
  hasTagScope: boolean;
}

/** What the user form saves: POST /api/user/{id}'s fields, and a new user's domain. */
export type UserSaveBody = UpdateAccountingUser & { domain_id?: string };

/** The body that saves the form: the create body for a new user, the changed fields otherwise. */
export function fromUserForm(values: UserFormValues, shape: UserFormShape, mode: UserFormMode): UserSaveBody {
  if (mode === "selfPassword") return { password: values.password };
  const body: UserSaveBody = {
    username: values.username.trim(),
    full_name: values.full_name.trim(),
    email: values.email.trim() || null,
    phone: values.phone.trim() || null,
  };
  // The role field refuses to submit without a role (validateRole).
  if (shape.hasRole && values.role !== "") {
    body.role = values.role;
    body.is_junior = mayBeJunior(values.role) && values.is_junior;
  }
  if (shape.hasPolicy) body.policy_id = values.policy_id || null;
  if (shape.hasPlugins) body.plugins = values.plugins;
  // A role that cannot be limited saves no scope (the server clears it).
  if (shape.hasTagScope && values.role !== "" && mayHaveTagScope(values.role))
    body.tag_scope = values.tag_scope;
  if (shape.hasDomain && shape.isNew) body.domain_id = values.domain_id;
  if (values.password || shape.isNew) body.password = values.password;
  if (!shape.isNew) body.blocked = values.blocked;
  return body;
}

export const optionalEmail = allowEmpty((value: string) => validateEmail(value));
export const optionalPhone = allowEmpty((value: string) => validatePhone(value));

/**
 * The password rule of the form: required for a new user, optional when editing (blank keeps the
 * current one); judged by the chosen policy's rules, admins by the admin minimum too.
 */
export function checkUserPassword(
  value: string,
  options: { isRequired: boolean; rules: PasswordRules | null; isAdmin: boolean },
) {
  if (!options.isRequired && value.length === 0) return null;
  return validatePassword(value, options.rules ?? DEFAULT_POLICY, { isAdmin: options.isAdmin });
}

export { checkPasswordConfirmation };
