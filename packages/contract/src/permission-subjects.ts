import type { Role } from "./roles";

// Who asks the permission table (permissions.ts): the subject and the five kinds of people of spec
// section 6, apart from the table so the few modules that need only a person's kind read this.

/** Who asks: the fields that the web's SessionUser and the server's session both carry. */
export interface PermissionSubject {
  /** The user id: nobody approves their own action. */
  readonly _id: string;
  readonly role: Role;
  /** A junior assistant (role 3): its actions need an assistant's or an admin's approval. */
  readonly is_junior: boolean;
  /** The demo user may read but never save (spec section 4). */
  readonly is_demo: boolean;
  readonly plugins: readonly string[];
  /** A call made with an API token: the actions the token carries (absent for a signed-in person). */
  readonly grants?: readonly string[];
  /** Limited to the routers of some tags, as a person or by a token (ADR 041). */
  readonly is_tag_limited?: boolean;
}

/** The five kinds of people of spec section 6; the junior assistant is a role 3 with is_junior. */
export type SubjectKind = "superuser" | "admin" | "assistant" | "junior" | "operator";

/** Every kind, in the order of the spec's role numbers. */
export const SUBJECT_KINDS: readonly SubjectKind[] = [
  "superuser",
  "admin",
  "assistant",
  "junior",
  "operator",
];

const KIND_OF_ROLE: Record<Role, SubjectKind> = {
  1: "superuser",
  2: "admin",
  3: "assistant",
  4: "operator",
};

/** The kind of a subject: its role, with role 3 split into assistant and junior assistant. */
export function kindOf(subject: { readonly role: Role; readonly is_junior?: boolean }): SubjectKind {
  const kind = KIND_OF_ROLE[subject.role];
  return kind === "assistant" && subject.is_junior ? "junior" : kind;
}
