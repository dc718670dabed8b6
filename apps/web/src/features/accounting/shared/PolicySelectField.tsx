import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { type Control, type FieldPathByValue, type FieldValues, useController } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { HALF_ROW } from "../../../components/forms/formFields";

interface PolicySelectFieldProps<T extends FieldValues> {
  control: Control<T>;
  /** The field holding the policy id; "" for the domain's default policy. */
  name: FieldPathByValue<T, string>;
  /** The policies on offer (undefined while they load or when not loaded at all). */
  policies: { _id: string; name: string }[] | undefined;
  /** The chosen policy's name, for a chosen policy the list does not hold. */
  currentName: string | undefined;
}

/** The security-policy select of a domain or user form: the default policy first, then the list. */
export function PolicySelectField<T extends FieldValues>({
  control,
  name,
  policies,
  currentName,
}: PolicySelectFieldProps<T>) {
  const { t } = useTranslation();
  const { field } = useController({ control, name });
  const value = field.value as string;
  return (
    <Grid size={HALF_ROW}>
      <TextField
        select
        fullWidth
        label={t("accounting.fields.policy")}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        value={value}
        onChange={(event) => field.onChange(event.target.value)}
      >
        <MenuItem value="">{t("accounting.policies.default")}</MenuItem>
        {(policies ?? []).map((policy) => (
          <MenuItem key={policy._id} value={policy._id}>
            {policy.name}
          </MenuItem>
        ))}
        {value && !policies?.some((policy) => policy._id === value) ? (
          <MenuItem value={value}>{currentName ?? value}</MenuItem>
        ) : null}
      </TextField>
    </Grid>
  );
}
