import { configure } from "@testing-library/react";
import { loadLocale } from "../app/i18n";
import { TEXT_PART_NAMES } from "../app/textParts";

// The app fetches each language's texts on demand (ADR 018); tests read both languages whole at once.
await Promise.all([loadLocale("ru", TEXT_PART_NAMES), loadLocale("en", TEXT_PART_NAMES)]);

// Testing Library waits a second by default for what a test expects to appear; on CI's busy machine a
// render beside a server test file can take longer, so the waits get five (a failing wait still fails).
configure({ asyncUtilTimeout: 5000 });
