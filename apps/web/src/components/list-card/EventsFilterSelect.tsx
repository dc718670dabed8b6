import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { useTranslation } from "react-i18next";
import { useFormatNumber } from "../../app/format";
import type { EventsFilter } from "./listState";

const OPTIONS: EventsFilter[] = ["all", "with", "without"];

/** The events filter of a list card: rows with events, without them, or all. */
export function EventsFilterSelect({
  value,
  onChange,
  counts,
}: {
  value: EventsFilter;
  onChange: (value: EventsFilter) => void;
  /** How many rows have events and how many have none, shown beside the options when known. */
  counts?: { with: number; without: number } | null;
}) {
  const { t } = useTranslation();
  const formatNumber = useFormatNumber();
  return (
    <TextField
      select
      size="small"
      label={t("fleet.list.events")}
      value={value}
      onChange={(event) => onChange(event.target.value as EventsFilter)}
      sx={{ minWidth: 160 }}
    >
      {OPTIONS.map((option) => (
        <MenuItem key={option} value={option}>
          {t(`fleet.list.eventsFilter.${option}`)}
          {counts && option !== "all" ? ` (${formatNumber(counts[option])})` : ""}
        </MenuItem>
      ))}
    </TextField>
  );
}
