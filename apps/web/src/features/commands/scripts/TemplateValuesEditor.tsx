import { isSystemVariable, SYSTEM_VARIABLES, type TemplateValues } from "@cellfleet/contract";
import AddIcon from "@mui/icons-material/Add";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutlineOutlined";
import Autocomplete from "@mui/material/Autocomplete";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { deviceListQueryOptions } from "../../devices/devices.queries";

/** One value over the default: for a tag or a router. */
export interface OverrideRow {
  scope: "tag" | "device";
  key: string;
  variable: string;
  value: string;
}

/** The rows of a template's values by tag and by router. */
export function overridesOf(values: TemplateValues): OverrideRow[] {
  const rows: OverrideRow[] = [];
  for (const [key, set] of Object.entries(values.tag_values))
    for (const [variable, value] of Object.entries(set)) rows.push({ scope: "tag", key, variable, value });
  for (const [key, set] of Object.entries(values.device_values))
    for (const [variable, value] of Object.entries(set)) rows.push({ scope: "device", key, variable, value });
  return rows;
}

/** The values a save sends: the defaults of the variables the text uses, and the filled override rows. */
export function valuesOf(
  defaults: Record<string, string>,
  rows: readonly OverrideRow[],
  used: readonly string[],
) {
  const result: TemplateValues = { defaults: {}, tag_values: {}, device_values: {} };
  for (const name of used) if (defaults[name]) result.defaults[name] = defaults[name];
  for (const row of rows) {
    if (!row.key || !row.variable) continue;
    const bucket = row.scope === "tag" ? result.tag_values : result.device_values;
    bucket[row.key] = { ...bucket[row.key], [row.variable]: row.value };
  }
  return result;
}

interface Props {
  variables: readonly string[];
  defaults: Record<string, string>;
  onDefaults: (defaults: Record<string, string>) => void;
  rows: OverrideRow[];
  onRows: (rows: OverrideRow[]) => void;
  isReadOnly: boolean;
}

/** A template's variables: a default each, then values by tag and by router (router over tag over default). */
export function TemplateValuesEditor({ variables, defaults, onDefaults, rows, onRows, isReadOnly }: Props) {
  const { t } = useTranslation();
  const [search, setSearch] = useState("");
  const devices = useQuery(deviceListQueryOptions({ search: search || undefined, size: 50 }));
  const options = (devices.data?.rows ?? []).map((device) => ({ _id: device._id, ident: device.ident }));
  const own = variables.filter((name) => !isSystemVariable(name));
  const change = (index: number, patch: Partial<OverrideRow>) =>
    onRows(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  return (
    <Stack spacing={2} data-testid="template-values">
      <Typography variant="subtitle2">{t("scripts.template.defaults")}</Typography>
      <Typography variant="body2" color="text.secondary">
        {t("scripts.template.system", { names: SYSTEM_VARIABLES.map((name) => `{{${name}}}`).join(", ") })}
      </Typography>
      {own.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t("scripts.template.noVariables")}
        </Typography>
      ) : (
        own.map((name) => (
          <TextField
            key={name}
            size="small"
            label={`{{${name}}}`}
            value={defaults[name] ?? ""}
            onChange={(e) => onDefaults({ ...defaults, [name]: e.target.value })}
            slotProps={{ input: { readOnly: isReadOnly } }}
          />
        ))
      )}
      <Typography variant="subtitle2">{t("scripts.template.overrides")}</Typography>
      {rows.map((row, index) => (
        <Stack
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
          key={index}
          direction={{ xs: "column", sm: "row" }}
          spacing={1}
          sx={{
            alignItems: { sm: "center" },
            // On a phone each value is its own framed group, its delete button at its end.
            p: { xs: 1.5, sm: 0 },
            borderStyle: { xs: "solid", sm: "none" },
            borderWidth: 1,
            borderColor: "divider",
            borderRadius: 1,
          }}
        >
          <TextField
            select
            size="small"
            value={row.scope}
            onChange={(e) => change(index, { scope: e.target.value as OverrideRow["scope"], key: "" })}
            sx={{ minWidth: 120 }}
            disabled={isReadOnly}
          >
            <MenuItem value="tag">{t("scripts.template.tag")}</MenuItem>
            <MenuItem value="device">{t("scripts.template.device")}</MenuItem>
          </TextField>
          {row.scope === "tag" ? (
            <TextField
              size="small"
              label={t("scripts.template.tag")}
              value={row.key}
              onChange={(e) => change(index, { key: e.target.value })}
              disabled={isReadOnly}
            />
          ) : (
            <Autocomplete
              size="small"
              sx={{ minWidth: 200 }}
              options={options}
              value={
                options.find((option) => option._id === row.key) ??
                (row.key ? { _id: row.key, ident: row.key } : null)
              }
              getOptionLabel={(option) => option.ident}
              isOptionEqualToValue={(a, b) => a._id === b._id}
              onChange={(_event, value) => change(index, { key: value?._id ?? "" })}
              onInputChange={(_event, value) => setSearch(value.replace(/[^\p{L}\p{N}_\-@=]/gu, ""))}
              renderInput={(params) => <TextField {...params} label={t("scripts.template.device")} />}
              disabled={isReadOnly}
            />
          )}
          <TextField
            select
            size="small"
            label={t("scripts.template.variable")}
            value={own.includes(row.variable) ? row.variable : ""}
            onChange={(e) => change(index, { variable: e.target.value })}
            sx={{ minWidth: 140 }}
            disabled={isReadOnly}
          >
            {own.map((name) => (
              <MenuItem key={name} value={name}>
                {name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            size="small"
            label={t("scripts.template.value")}
            value={row.value}
            onChange={(e) => change(index, { value: e.target.value })}
            disabled={isReadOnly}
            sx={{ flex: 1 }}
          />
          {isReadOnly ? null : (
            <IconButton
              aria-label={t("fleet.common.delete")}
              onClick={() => onRows(rows.filter((_r, i) => i !== index))}
            >
              <DeleteOutlineIcon />
            </IconButton>
          )}
        </Stack>
      ))}
      {isReadOnly ? null : (
        <Button
          startIcon={<AddIcon />}
          sx={{ alignSelf: "flex-start" }}
          onClick={() => onRows([...rows, { scope: "tag", key: "", variable: own[0] ?? "", value: "" }])}
          disabled={own.length === 0}
        >
          {t("scripts.template.addOverride")}
        </Button>
      )}
    </Stack>
  );
}
