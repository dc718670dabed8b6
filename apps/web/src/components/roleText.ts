import { mayBeJunior, type Role, roleLabelKey } from "@cellfleet/contract";
import type { TFunction } from "i18next";

/**
 * A user's role as people read it: a junior assistant (role 3 with `is_junior`, spec §6) is named so,
 * since their actions need an assistant's or an admin's approval (issue 11: it looked like any assistant).
 */
export function roleText(t: TFunction, user: { role: number; is_junior?: boolean }): string {
  if (isJuniorAssistant(user)) return t("roles.junior");
  return t(`roles.${roleLabelKey(user.role)}`);
}

/** A junior assistant: the role the contract allows to be junior, with the flag set. */
export function isJuniorAssistant(user: { role: number; is_junior?: boolean }): boolean {
  return mayBeJunior(user.role as Role) && user.is_junior === true;
}
