import Checkbox from "@mui/material/Checkbox";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormGroup from "@mui/material/FormGroup";
import FormHelperText from "@mui/material/FormHelperText";
import FormLabel from "@mui/material/FormLabel";

interface CheckboxChoicesProps<V extends string | number> {
  label: string;
  choices: ReadonlyArray<{ value: V; label: string }>;
  value: readonly V[];
  onChange: (value: V[]) => void;
  error?: string;
  helperText?: string;
  testId: string;
}

/** A row of checkboxes picking any of a few values (days of the week, weeks of the month). */
export function CheckboxChoices<V extends string | number>({
  label,
  choices,
  value,
  onChange,
  error,
  helperText,
  testId,
}: CheckboxChoicesProps<V>) {
  const message = error ?? helperText;
  return (
    <FormControl error={Boolean(error)} data-testid={testId}>
      <FormLabel>{label}</FormLabel>
      <FormGroup row>
        {choices.map((choice) => (
          <FormControlLabel
            key={choice.value}
            label={choice.label}
            control={
              <Checkbox
                checked={value.includes(choice.value)}
                onChange={(event) =>
                  onChange(
                    event.target.checked
                      ? [...value, choice.value]
                      : value.filter((entry) => entry !== choice.value),
                  )
                }
              />
            }
          />
        ))}
      </FormGroup>
      {message ? <FormHelperText>{message}</FormHelperText> : null}
    </FormControl>
  );
}
