import { TAG_MAX_LENGTH, validateTag } from "@cellfleet/contract";
import Autocomplete from "@mui/material/Autocomplete";
import Chip from "@mui/material/Chip";
import TextField from "@mui/material/TextField";
import { type KeyboardEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { formError } from "../../app/messages/texts";
import { suggestTags, tagHint } from "./tagSuggestions";

interface TagsInputProps {
  value: string[];
  onChange: (tags: string[]) => void;
  /** Known tags and how often each is used (POST /api/tags/); suggestions are the most frequent. */
  frequencies?: Readonly<Record<string, number>>;
  label?: string;
  /** Chips shown while the field is not focused; the rest collapse into '+N'. */
  limitTags?: number;
  /** Only suggested (existing) tags may be picked: a filter has no use for unknown tags. */
  isSuggestionOnly?: boolean;
  size?: "small" | "medium";
  /** In a form column the input takes the full width; in a filter row it shares the row. */
  isFullWidth?: boolean;
  /** Shows the chips without letting them change (a read-only form). */
  isDisabled?: boolean;
}

/**
 * A tags input (spec section 2): chips that collapse when the field is not focused, up to five
 * suggestions sorted by frequency, Enter adds the typed tag, Tab accepts the hint. Typed tags are
 * checked with the contract's tag rule before they are added.
 */
export function TagsInput({
  value,
  onChange,
  frequencies = {},
  label,
  limitTags = 2,
  isSuggestionOnly = false,
  size = "small",
  isFullWidth = false,
  isDisabled = false,
}: TagsInputProps) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const suggestions = suggestTags(frequencies, text, value);
  const hint = tagHint(suggestions, text);

  function add(tag: string): boolean {
    const trimmed = tag.trim();
    if (!trimmed || value.includes(trimmed)) {
      setText("");
      return true;
    }
    const problem = validateTag(trimmed);
    if (problem) {
      setError(formError(problem));
      return false;
    }
    if (isSuggestionOnly && !Object.hasOwn(frequencies, trimmed)) {
      setError(t("fleet.list.unknownTag"));
      return false;
    }
    setError(null);
    setText("");
    onChange([...value, trimmed]);
    return true;
  }

  function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === "Tab" && hint && text.trim()) {
      event.preventDefault();
      add(hint);
    }
  }

  return (
    <Autocomplete
      multiple
      freeSolo
      disabled={isDisabled}
      limitTags={limitTags}
      getLimitTagsText={(more) => t("fleet.list.moreTags", { count: more })}
      options={suggestions}
      filterOptions={(options) => options}
      value={value}
      inputValue={text}
      onInputChange={(_event, next, reason) => {
        if (reason === "reset") return;
        setText(next.slice(0, TAG_MAX_LENGTH));
        setError(null);
      }}
      onChange={(_event, next, reason, details) => {
        if (reason === "createOption" || reason === "selectOption") {
          const picked = details?.option;
          if (typeof picked === "string") add(picked);
          return;
        }
        onChange(next.filter((item): item is string => typeof item === "string"));
      }}
      renderValue={(tags, getItemProps) =>
        tags.map((tag, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return <Chip key={key} size="small" label={tag} {...itemProps} />;
        })
      }
      onKeyDown={handleKeyDown}
      sx={isFullWidth ? { width: "100%" } : { minWidth: 220, flex: "1 1 240px" }}
      renderInput={(params) => (
        <TextField
          {...params}
          size={size}
          label={label ?? t("fleet.list.tags")}
          error={error !== null}
          helperText={error ?? (hint ? t("fleet.list.tabHint", { tag: hint }) : undefined)}
        />
      )}
    />
  );
}
