import { ShellWithBadges } from "../features/events/ShellWithBadges";
import { ConsoleProviders } from "./ConsoleProviders";

/**
 * The signed-in frame: the console's providers around the MUI shell. A chunk of its own, fetched once
 * someone is signed in, so /login loads neither MUI nor TanStack Query (ADR 018, round 4).
 */
export function ConsoleShell() {
  return (
    <ConsoleProviders>
      <ShellWithBadges />
    </ConsoleProviders>
  );
}
