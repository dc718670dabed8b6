import { useCallback } from "react";
import { useTranslation } from "react-i18next";

// Building an Intl formatter costs far more than using one, and a page of rows formats hundreds of
// values: one formatter a language, kept for the page's life (there are two languages).
const numberFormats = new Map<string, Intl.NumberFormat>();
const momentFormats = new Map<string, Intl.DateTimeFormat>();

/** A count with the language's digit groups: 100000 is "100,000" in English, "100 000" (no-break space) in Russian. */
export function formatNumber(value: number, language: string): string {
  let format = numberFormats.get(language);
  if (!format) {
    format = new Intl.NumberFormat(language);
    numberFormats.set(language, format);
  }
  return format.format(value);
}

/** A moment (ms since the epoch) as `Date.prototype.toLocaleString(language)` writes it: date and time with seconds. */
export function formatMoment(ms: number, language: string): string {
  let format = momentFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, {
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    momentFormats.set(language, format);
  }
  return format.format(ms);
}

const clockFormats = new Map<string, { time: Intl.DateTimeFormat; dayTime: Intl.DateTimeFormat }>();

/**
 * The time of day of a moment, to stand beside "just now" where times are compared (spec §9 says
 * 'just now' for half an hour, issue 11): "14:05" on the same day as `now`, "21.11, 14:05" (the
 * language's day and month) before it.
 */
export function formatClock(ms: number, now: number, language: string): string {
  let format = clockFormats.get(language);
  if (!format) {
    format = {
      time: new Intl.DateTimeFormat(language, { hour: "2-digit", minute: "2-digit" }),
      dayTime: new Intl.DateTimeFormat(language, {
        day: "2-digit",
        month: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
      }),
    };
    clockFormats.set(language, format);
  }
  const isSameDay = new Date(ms).toDateString() === new Date(now).toDateString();
  return (isSameDay ? format.time : format.dayTime).format(ms);
}

/** `formatNumber` in the interface language; the component renders again when the language changes. */
export function useFormatNumber(): (value: number) => string {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useCallback((value: number) => formatNumber(value, language), [language]);
}
