import Stack from "@mui/material/Stack";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { DayField } from "./DayField";
import { customRange, type DateRange, type DateRangeTab, presetRange, toDateInput } from "./dateRange";

interface DateRangeFilterProps {
  value: DateRange;
  onChange: (range: DateRange) => void;
}

const TABS: DateRangeTab[] = ["all", "today", "yesterday", "week", "custom"];

/** The calendar filter of spec section 2: all, today, yesterday, last week or a custom range of days, none in the future. */
export function DateRangeFilter({ value, onChange }: DateRangeFilterProps) {
  const { t } = useTranslation();
  const today = toDateInput(Date.now());
  const [from, setFrom] = useState(value.since === null ? "" : toDateInput(value.since));
  const [to, setTo] = useState(value.until === null ? "" : toDateInput(value.until));

  const handleTab = (tab: DateRangeTab) => {
    if (tab === "custom") onChange(customRange(from, to, Date.now()));
    else onChange(presetRange(tab, Date.now()));
  };
  const handleFrom = (next: string) => {
    setFrom(next);
    onChange(customRange(next, to, Date.now()));
  };
  const handleTo = (next: string) => {
    setTo(next);
    onChange(customRange(from, next, Date.now()));
  };

  return (
    <Stack spacing={1} data-testid="date-range-filter">
      <Tabs
        value={value.tab}
        onChange={(_, tab: DateRangeTab) => handleTab(tab)}
        variant="scrollable"
        allowScrollButtonsMobile
        aria-label={t("dateRange.label")}
      >
        {TABS.map((tab) => (
          <Tab key={tab} value={tab} label={t(`dateRange.${tab}`)} />
        ))}
      </Tabs>
      {value.tab === "custom" ? (
        <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
          <DayField label={t("dateRange.from")} value={from} onChange={handleFrom} max={to || today} />
          <DayField
            label={t("dateRange.to")}
            value={to}
            onChange={handleTo}
            min={from || undefined}
            max={today}
          />
        </Stack>
      ) : null}
    </Stack>
  );
}
