import FormControl from "@mui/material/FormControl";
import FormHelperText from "@mui/material/FormHelperText";
import InputLabel from "@mui/material/InputLabel";
import OutlinedInput from "@mui/material/OutlinedInput";
import { type ChangeEvent, type ReactNode, useId } from "react";

interface LoginFieldProps {
  name: string;
  label: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  type?: string;
  autoComplete?: string;
  autoFocus?: boolean;
  error?: string;
  endAdornment?: ReactNode;
}

/**
 * An outlined text field built from the parts MUI's TextField renders for it (form control, floating
 * label, outlined input, helper text), so it looks the same. TextField itself imports Select, and
 * with it Menu, Popover and Modal, for its `select` mode: 15 kB of /login's start-up (ADR 018).
 */
export function LoginField({ name, label, error, endAdornment, ...input }: LoginFieldProps) {
  const id = useId();
  const helperId = `${id}-helper-text`;
  return (
    <FormControl variant="outlined" error={Boolean(error)}>
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput
        id={id}
        name={name}
        label={label}
        endAdornment={endAdornment}
        aria-describedby={error ? helperId : undefined}
        {...input}
      />
      {error ? <FormHelperText id={helperId}>{error}</FormHelperText> : null}
    </FormControl>
  );
}
