import type { FormError } from "@cellfleet/contract";
import { formError } from "../../app/messages/texts";

/**
 * Turns a contract validator into a react-hook-form `validate` rule: true when valid, otherwise the
 * validator's message in the current language, so a person sees the problem before submitting.
 */
export function rule<V>(validate: (value: V) => FormError | null): (value: V) => string | true {
  return (value) => {
    const error = validate(value);
    return error === null ? true : formError(error);
  };
}

/** A whole number typed into a text field, or null when blank; NaN when it is not a whole number. */
export function parseWhole(value: string): number | null {
  const text = value.trim();
  if (text === "") return null;
  return /^\d+$/.test(text) ? Number(text) : Number.NaN;
}
