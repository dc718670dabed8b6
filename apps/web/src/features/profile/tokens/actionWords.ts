import type { TFunction } from "i18next";

/** An action of the permission table in the person's words ("See routers"); its code if it has none. */
export function actionWord(t: TFunction, action: string): string {
  return t(`apiTokens.action.${action}`, { defaultValue: action });
}
