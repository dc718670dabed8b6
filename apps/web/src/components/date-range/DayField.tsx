import TextField from "@mui/material/TextField";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatDay, parseDay } from "./localDate";

interface DayFieldProps {
  label: string;
  /** An ISO day (yyyy-mm-dd) or ''. */
  value: string;
  onChange: (iso: string) => void;
  min?: string;
  max?: string;
}

/**
 * A day typed as the interface language writes it (dd.mm.yyyy in Russian), not as the browser's
 * locale would show a native date input; it reports an ISO day once the text is a whole real date
 * within min and max, and '' when cleared.
 */
export function DayField({ label, value, onChange, min, max }: DayFieldProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const [text, setText] = useState(formatDay(value, language));
  const [isInvalid, setInvalid] = useState(false);

  // A value set from outside, or a language change, rewrites the text.
  useEffect(() => {
    setText(formatDay(value, language));
    setInvalid(false);
  }, [value, language]);

  const handleChange = (next: string) => {
    setText(next);
    if (next.trim() === "") {
      setInvalid(false);
      onChange("");
      return;
    }
    const iso = parseDay(next, language);
    const isInRange = iso !== null && (!min || iso >= min) && (!max || iso <= max);
    if (iso && isInRange) {
      setInvalid(false);
      onChange(iso);
    }
  };
  const handleBlur = () => {
    const iso = parseDay(text, language);
    setInvalid(
      text.trim() !== "" && (iso === null || Boolean(min && iso < min) || Boolean(max && iso > max)),
    );
  };

  return (
    <TextField
      size="small"
      label={label}
      value={text}
      placeholder={t("dateRange.dayPlaceholder")}
      error={isInvalid}
      helperText={isInvalid ? t("dateRange.badDay") : undefined}
      onChange={(event) => handleChange(event.target.value)}
      onBlur={handleBlur}
      slotProps={{
        inputLabel: { shrink: true },
        htmlInput: { inputMode: "numeric", "data-testid": "day-field" },
      }}
    />
  );
}
