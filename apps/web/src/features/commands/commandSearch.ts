import type { Command } from "@cellfleet/contract";
import type { TFunction } from "i18next";

/** Whom a command went to, as the actions list shows it: all routers, its tags, or how many routers. */
export function targetsLabel(t: TFunction, targets: Command["targets"]): string {
  if (targets.all) return t("commands.targets.all");
  const parts: string[] = [];
  if (targets.tags.length > 0) parts.push(t("commands.targets.tags", { tags: targets.tags.join(", ") }));
  if (targets.devices.length > 0)
    parts.push(t("commands.targets.devices", { count: targets.devices.length }));
  return parts.join(" · ");
}

/**
 * Whether a command's shown texts hold every word of the search, in any case and order (the actions
 * list's search, issue 27): its type, status, targets, author, approver and id.
 */
export function matchesCommandSearch(shown: readonly string[], search: string): boolean {
  const words = search.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = shown.join(" ").toLocaleLowerCase();
  return words.every((word) => text.includes(word));
}
