import { DEVICE_STATUSES, type DeviceStatus } from "@cellfleet/contract";
import Autocomplete from "@mui/material/Autocomplete";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { tagFrequenciesQueryOptions } from "../devices/devices.queries";

/** The map's filters: the device list's search, statuses and tags. */
export interface MapFilter {
  search: string;
  status: DeviceStatus[];
  tags: string[];
}

interface MapFiltersProps {
  filter: MapFilter;
  colors: Record<DeviceStatus, string>;
  onChange: (filter: MapFilter) => void;
}

/** How long typing pauses before the search is asked. */
const SEARCH_PAUSE_MS = 300;

/** Search, status chips and tags above the map. */
export function MapFilters({ filter, colors, onChange }: MapFiltersProps) {
  const { t } = useTranslation();
  const tags = useQuery(tagFrequenciesQueryOptions());
  const [search, setSearch] = useState(filter.search);
  useEffect(() => {
    if (search === filter.search) return;
    const timer = setTimeout(() => onChange({ ...filter, search }), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [search, filter, onChange]);

  const toggleStatus = (status: DeviceStatus) =>
    onChange({
      ...filter,
      status: filter.status.includes(status)
        ? filter.status.filter((name) => name !== status)
        : [...filter.status, status],
    });

  return (
    <Stack direction={{ xs: "column", md: "row" }} spacing={1.5} sx={{ mb: 2, alignItems: { md: "center" } }}>
      <TextField
        size="small"
        label={t("map.search")}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        sx={{ minWidth: 220 }}
        slotProps={{ htmlInput: { "data-testid": "map-search" } }}
      />
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: "wrap" }}>
        {DEVICE_STATUSES.map((status) => {
          const isOn = filter.status.includes(status);
          return (
            <Chip
              key={status}
              data-testid={`map-status-${status}`}
              label={t(`fleet.status.${status}`)}
              variant={isOn ? "filled" : "outlined"}
              aria-pressed={isOn}
              onClick={() => toggleStatus(status)}
              sx={{
                borderColor: colors[status],
                ...(isOn ? { bgcolor: colors[status], color: "#fff" } : {}),
                "&:hover": isOn ? { bgcolor: colors[status] } : {},
              }}
              icon={
                <span
                  aria-hidden
                  style={{
                    width: 10,
                    height: 10,
                    borderRadius: "50%",
                    background: isOn ? "#fff" : colors[status],
                    marginLeft: 8,
                  }}
                />
              }
            />
          );
        })}
      </Stack>
      <Autocomplete
        multiple
        size="small"
        options={Object.keys(tags.data ?? {})}
        value={filter.tags}
        onChange={(_, value) => onChange({ ...filter, tags: value })}
        renderInput={(params) => <TextField {...params} label={t("map.tags")} />}
        sx={{ minWidth: 220, flex: { md: 1 }, maxWidth: { md: 420 } }}
      />
    </Stack>
  );
}
