import { lazy, Suspense } from "react";
import { useCurrentInfoMessage } from "./messageStore";

// The snackbar is fetched with the first message: most starts show none (ADR 018).
const InfoMessageHost = lazy(async () => ({ default: (await import("./InfoMessageHost")).InfoMessageHost }));

/** The info messages' place in the shell; InfoMessageHost shows them. */
export function InfoMessages() {
  const hasMessage = useCurrentInfoMessage() !== null;
  if (!hasMessage) return null;
  return (
    <Suspense fallback={null}>
      <InfoMessageHost />
    </Suspense>
  );
}
