import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import Grid, { type GridProps } from "@mui/material/Grid";
import Switch from "@mui/material/Switch";
import TextField, { type TextFieldProps } from "@mui/material/TextField";
import {
  type Control,
  type FieldPathByValue,
  type FieldValues,
  type Path,
  type RegisterOptions,
  type UseFormReturn,
  useController,
} from "react-hook-form";

/** The grid cell of most accounting form fields: a whole row on phones, half a row from md up. */
export const HALF_ROW: GridProps["size"] = { xs: 12, md: 6 };

type FormTextFieldProps<T extends FieldValues, N extends Path<T>> = Omit<
  TextFieldProps,
  "name" | "error" | "helperText"
> & {
  form: UseFormReturn<T>;
  name: N;
  rules?: RegisterOptions<T, N>;
  /** Shown under the field while it has no error. */
  helperText?: string;
  /** The grid cell's size; HALF_ROW unless told. */
  cellSize?: GridProps["size"];
};

/** A text field (or select) registered on a form, in its grid cell, with its validation message under it. */
export function FormTextField<T extends FieldValues, N extends Path<T>>({
  form,
  name,
  rules,
  helperText,
  cellSize = HALF_ROW,
  ...props
}: FormTextFieldProps<T, N>) {
  const { error } = form.getFieldState(name, form.formState);
  return (
    <Grid size={cellSize}>
      <TextField
        fullWidth
        {...props}
        error={Boolean(error)}
        helperText={error?.message ?? helperText}
        {...form.register(name, rules)}
      />
    </Grid>
  );
}

interface FormToggleProps<T extends FieldValues> {
  control: Control<T>;
  name: FieldPathByValue<T, boolean>;
  label: string;
  /** A checkbox instead of a switch. */
  isCheckbox?: boolean;
  disabled?: boolean;
}

/** A yes/no field of a form as a labelled switch (or checkbox). */
export function FormToggle<T extends FieldValues>({
  control,
  name,
  label,
  isCheckbox,
  disabled,
}: FormToggleProps<T>) {
  const { field } = useController({ control, name });
  const toggle = {
    disabled,
    checked: field.value as boolean,
    onChange: (event: { target: { checked: boolean } }) => field.onChange(event.target.checked),
  };
  return (
    <FormControlLabel
      control={isCheckbox ? <Checkbox {...toggle} /> : <Switch {...toggle} />}
      label={label}
    />
  );
}
