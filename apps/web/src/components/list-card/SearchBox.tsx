import { SEARCH_DEBOUNCE_MS, validateSearch } from "@cellfleet/contract";
import SearchIcon from "@mui/icons-material/Search";
import Autocomplete from "@mui/material/Autocomplete";
import InputAdornment from "@mui/material/InputAdornment";
import TextField from "@mui/material/TextField";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { formError } from "../../app/messages/texts";
import { debounce } from "./debounce";
import { readListChoice, writeListChoice } from "./listStorage";
import { pushSearchHistory } from "./searchHistory";

interface SearchBoxProps {
  /** The list's storage prefix: its search history is kept under it. */
  prefix: string;
  value: string;
  /** Called 150 ms after the last keystroke (spec section 9), and at once on Enter or a history pick. */
  onChange: (value: string) => void;
}

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === "string");

/**
 * The list card's search box: debounced, with the last five searches offered as suggestions, and
 * Ctrl+F (Cmd+F) focusing it instead of opening the browser's find.
 */
export function SearchBox({ prefix, value, onChange }: SearchBoxProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(value);
  const [history, setHistory] = useState<string[]>(() => readListChoice(prefix, "history", [], isStrings));
  const inputRef = useRef<HTMLInputElement>(null);
  const latestOnChange = useRef(onChange);
  latestOnChange.current = onChange;
  const debounced = useMemo(
    () => debounce((next: string) => latestOnChange.current(next), SEARCH_DEBOUNCE_MS),
    [],
  );

  useEffect(() => debounced.cancel, [debounced]);
  // A chip's clear button or a reset outside the box empties it too.
  useEffect(() => setText(value), [value]);

  useEffect(() => {
    function handleKeyDown(event: KeyboardEvent) {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "f") {
        event.preventDefault();
        inputRef.current?.focus();
        inputRef.current?.select();
      }
    }
    window.addEventListener("keydown", handleKeyDown);
    return () => window.removeEventListener("keydown", handleKeyDown);
  }, []);

  const invalid = text.trim() ? validateSearch(text) : null;

  function remember(entry: string) {
    const next = pushSearchHistory(history, entry);
    setHistory(next);
    writeListChoice(prefix, "history", next);
  }

  function commit(next: string) {
    debounced.cancel();
    setText(next);
    if (validateSearch(next) === null || !next.trim()) onChange(next.trim());
    remember(next);
  }

  return (
    <Autocomplete
      freeSolo
      options={history}
      inputValue={text}
      filterOptions={(options) => options}
      onInputChange={(_event, next, reason) => {
        if (reason === "reset") return;
        setText(next);
        if (reason === "clear") {
          debounced.cancel();
          onChange("");
          return;
        }
        if (!next.trim() || validateSearch(next) === null) debounced.call(next.trim());
      }}
      onChange={(_event, picked) => {
        if (typeof picked === "string") commit(picked);
      }}
      sx={{ minWidth: 220, flex: "1 1 240px" }}
      renderInput={(params) => (
        <TextField
          {...params}
          inputRef={inputRef}
          size="small"
          placeholder={t("fleet.list.search")}
          error={invalid !== null}
          helperText={invalid ? formError(invalid) : undefined}
          onBlur={() => remember(text)}
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, "aria-label": t("fleet.list.search") },
            input: {
              ...params.slotProps.input,
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
      )}
    />
  );
}
