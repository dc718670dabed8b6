import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import { useTranslation } from "react-i18next";
import type { ActiveFilter } from "./listState";

interface ActiveFilterChipsProps {
  filters: ActiveFilter[];
  /** The text of a chip; lists label their own facets. */
  labelOf: (filter: ActiveFilter) => string;
  onRemove: (filter: ActiveFilter) => void;
  onClear: () => void;
}

/** The chips of the filters in force, each removable, and a button clearing them all. */
export function ActiveFilterChips({ filters, labelOf, onRemove, onClear }: ActiveFilterChipsProps) {
  const { t } = useTranslation();
  if (filters.length === 0) return null;
  return (
    <Stack
      direction="row"
      data-testid="active-filters"
      sx={{ flexWrap: "wrap", gap: 1, alignItems: "center", px: 2, pb: 1 }}
    >
      {filters.map((filter) => (
        <Chip
          key={`${filter.kind}:${filter.facet ?? ""}:${filter.value}`}
          size="small"
          color="primary"
          variant="outlined"
          label={labelOf(filter)}
          onDelete={() => onRemove(filter)}
        />
      ))}
      <Button size="small" onClick={onClear}>
        {t("fleet.list.clearFilters")}
      </Button>
    </Stack>
  );
}
