import { DEVICE_FILE_TYPES, type DeviceFacets } from "@cellfleet/contract";
import ArrowDropDownIcon from "@mui/icons-material/ArrowDropDown";
import Badge from "@mui/material/Badge";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import ListItemText from "@mui/material/ListItemText";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormatNumber } from "../../../app/format";
import { DEVICE_FACETS, type DeviceFacetName } from "../deviceListRequest";
import { useFacetValueLabel } from "./facetLabels";

interface FacetMenusProps {
  facets: DeviceFacets | null;
  chosen: Record<string, string[]>;
  onToggle: (facet: DeviceFacetName, value: string) => void;
}

/** Values of a facet with their counts, in the order the server answered (commonest first). */
export function facetEntries(
  facets: DeviceFacets,
  facet: DeviceFacetName,
): { value: string; count: number }[] {
  switch (facet) {
    case "status":
    case "signal":
      return Object.entries(facets[facet]).map(([value, count]) => ({ value, count: count ?? 0 }));
    case "file_type":
      // Every type of router file is offered, with 0 where no router has one yet.
      return DEVICE_FILE_TYPES.map((value) => ({
        value,
        count: facets.file_type.find((entry) => entry.value === value)?.count ?? 0,
      }));
    case "backups":
    case "journals":
      return [
        { value: "with", count: facets[facet].with },
        { value: "without", count: facets[facet].without },
      ];
    default:
      return facets[facet];
  }
}

function FacetMenu({
  facet,
  entries,
  chosen,
  onToggle,
}: {
  facet: DeviceFacetName;
  entries: { value: string; count: number }[];
  chosen: string[];
  onToggle: (value: string) => void;
}) {
  const { t } = useTranslation();
  const valueLabel = useFacetValueLabel();
  const formatNumber = useFormatNumber();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Badge color="primary" badgeContent={chosen.length} overlap="rectangular">
        <Button
          size="small"
          variant="outlined"
          color={chosen.length ? "primary" : "inherit"}
          endIcon={<ArrowDropDownIcon />}
          onClick={(event) => setAnchor(event.currentTarget)}
          data-testid={`facet-${facet}`}
        >
          {t(`fleet.facets.${facet}`)}
        </Button>
      </Badge>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {entries.length === 0 ? (
          <MenuItem disabled>{t("fleet.facets.none")}</MenuItem>
        ) : (
          entries.map(({ value, count }) => (
            <MenuItem key={value} dense onClick={() => onToggle(value)}>
              <Checkbox size="small" checked={chosen.includes(value)} sx={{ p: 0, mr: 1 }} />
              <ListItemText primary={valueLabel(facet, value)} />
              <ListItemText
                primary={formatNumber(count)}
                sx={{ textAlign: "right", ml: 2, color: "text.secondary", flex: "0 0 auto" }}
              />
            </MenuItem>
          ))
        )}
      </Menu>
    </>
  );
}

/** The facets of spec section 2 as menu buttons; each value shows how many devices have it. */
export function FacetMenus({ facets, chosen, onToggle }: FacetMenusProps) {
  return (
    <>
      {DEVICE_FACETS.map((facet) => (
        <FacetMenu
          key={facet}
          facet={facet}
          entries={facets ? facetEntries(facets, facet) : []}
          chosen={chosen[facet] ?? []}
          onToggle={(value) => onToggle(facet, value)}
        />
      ))}
    </>
  );
}
