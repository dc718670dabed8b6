import { loadLocale } from "../app/i18n";

// The app fetches each language's texts on demand (ADR 018); tests read both languages whole at once.
await Promise.all([loadLocale("ru", ["start", "console"]), loadLocale("en", ["start", "console"])]);
