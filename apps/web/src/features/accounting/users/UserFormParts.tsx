import { type PasswordRules, PLUGINS } from "@cellfleet/contract";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormGroup from "@mui/material/FormGroup";
import FormLabel from "@mui/material/FormLabel";
import Grid from "@mui/material/Grid";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { type Control, Controller, type UseFormReturn } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { rule } from "../shared/formRules";
import { checkPasswordConfirmation, checkUserPassword, type UserFormValues } from "./userForm";

interface PasswordFieldsProps {
  form: UseFormReturn<UserFormValues>;
  isNew: boolean;
  isRequired: boolean;
  rules: PasswordRules | null;
  isAdmin: boolean;
}

/** The password and its confirmation, judged by the chosen policy (blank keeps the current one when editing). */
export function PasswordFields({ form, isNew, isRequired, rules, isAdmin }: PasswordFieldsProps) {
  const { t } = useTranslation();
  const { errors } = form.formState;
  return (
    <>
      <Grid size={{ xs: 12, md: 6 }}>
        <TextField
          fullWidth
          type="password"
          autoComplete="new-password"
          label={isNew ? t("accounting.fields.password") : t("accounting.users.newPassword")}
          error={Boolean(errors.password)}
          helperText={errors.password?.message ?? (isNew ? undefined : t("accounting.users.passwordKeep"))}
          {...form.register("password", {
            validate: rule((value: string) =>
              checkUserPassword(value, {
                isRequired,
                rules,
                isAdmin,
              }),
            ),
            // Re-checks a confirmation already typed; an empty one is judged on its own blur, so no
            // message appears (and moves the buttons) before the person reaches it.
            onChange: () => {
              if (form.getValues("confirm")) void form.trigger("confirm");
            },
          })}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <TextField
          fullWidth
          type="password"
          autoComplete="new-password"
          label={t("accounting.fields.confirmPassword")}
          error={Boolean(errors.confirm)}
          helperText={errors.confirm?.message}
          {...form.register("confirm", {
            validate: (value, all) => rule(() => checkPasswordConfirmation(all.password, value))(value),
          })}
        />
      </Grid>
    </>
  );
}

/** The plugins (notification, accounting, keychain) that enable features for the person. */
export function PluginsField({ control }: { control: Control<UserFormValues> }) {
  const { t } = useTranslation();
  return (
    <Grid size={12}>
      <Controller
        control={control}
        name="plugins"
        render={({ field }) => (
          <Stack>
            <FormLabel component="legend">{t("accounting.fields.plugins")}</FormLabel>
            <FormGroup row>
              {PLUGINS.map((plugin) => (
                <FormControlLabel
                  key={plugin}
                  label={t(`accounting.plugins.${plugin}`)}
                  control={
                    <Checkbox
                      checked={field.value.includes(plugin)}
                      onChange={(event) =>
                        field.onChange(
                          event.target.checked
                            ? [...field.value, plugin]
                            : field.value.filter((item) => item !== plugin),
                        )
                      }
                    />
                  }
                />
              ))}
            </FormGroup>
          </Stack>
        )}
      />
    </Grid>
  );
}
