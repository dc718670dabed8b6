import { loadLocale } from "../app/i18n";
import { TEXT_PART_NAMES } from "../app/textParts";

// The app fetches each language's texts on demand (ADR 018); tests read both languages whole at once.
await Promise.all([loadLocale("ru", TEXT_PART_NAMES), loadLocale("en", TEXT_PART_NAMES)]);
