import { roleLabelKey } from "@cellfleet/contract";
import type { TFunction } from "i18next";

/**
 * A user's role as people read it: a junior assistant (role 3 with `is_junior`, spec §6) is named so,
 * since their actions need an assistant's or an admin's approval (issue 11: it looked like any assistant).
 */
export function roleText(t: TFunction, user: { role: number; is_junior?: boolean }): string {
  if (user.role === 3 && user.is_junior) return t("roles.junior");
  return t(`roles.${roleLabelKey(user.role)}`);
}
