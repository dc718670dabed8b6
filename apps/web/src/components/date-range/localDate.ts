/**
 * Dates typed as the interface language writes them (issue 11: a native date input follows the
 * browser's locale, so a Russian console showed mm/dd/yyyy): Russian dd.mm.yyyy, English
 * mm/dd/yyyy. The value kept and sent stays an ISO day, yyyy-mm-dd, as a date input's.
 */
interface DayPattern {
  order: readonly ("d" | "m" | "y")[];
  separator: string;
}

function patternOf(language: string): DayPattern {
  return language.startsWith("ru")
    ? { order: ["d", "m", "y"], separator: "." }
    : { order: ["m", "d", "y"], separator: "/" };
}

/** The placeholder of a day field: 'дд.мм.гггг' is given by the locale; this is its shape. */
export function dayShape(language: string): string {
  const { order, separator } = patternOf(language);
  return order.map((part) => (part === "y" ? "yyyy" : `${part}${part}`)).join(separator);
}

/** An ISO day (yyyy-mm-dd) as the language writes it; '' stays ''. */
export function formatDay(iso: string, language: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!match) return "";
  const parts = { y: match[1], m: match[2], d: match[3] };
  const { order, separator } = patternOf(language);
  return order.map((part) => parts[part]).join(separator);
}

/**
 * What a person typed, as an ISO day: null while it is not a whole real date ('31.02.2026', '1.2').
 * Any of . / - separates; day and month may have one digit.
 */
export function parseDay(text: string, language: string): string | null {
  const pieces = text.trim().split(/[./-]/);
  if (pieces.length !== 3 || pieces.some((piece) => !/^\d+$/.test(piece))) return null;
  const { order } = patternOf(language);
  const value = { d: 0, m: 0, y: 0 };
  order.forEach((part, index) => {
    value[part] = Number(pieces[index]);
  });
  if (String(pieces[order.indexOf("y")]).length !== 4) return null;
  const date = new Date(Date.UTC(value.y, value.m - 1, value.d));
  if (
    date.getUTCFullYear() !== value.y ||
    date.getUTCMonth() !== value.m - 1 ||
    date.getUTCDate() !== value.d
  ) {
    return null;
  }
  return `${value.y}-${String(value.m).padStart(2, "0")}-${String(value.d).padStart(2, "0")}`;
}
