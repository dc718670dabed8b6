import { type PasswordRules, PLUGINS } from "@cellfleet/contract";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormGroup from "@mui/material/FormGroup";
import FormLabel from "@mui/material/FormLabel";
import Grid from "@mui/material/Grid";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { type Control, Controller, type UseFormReturn } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormTextField } from "../../../components/forms/formFields";
import { rule } from "../../../components/forms/formRules";
import { TagsInput } from "../../../components/list-card";
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
  return (
    <>
      <FormTextField
        form={form}
        name="password"
        type="password"
        autoComplete="new-password"
        label={isNew ? t("accounting.fields.password") : t("accounting.users.newPassword")}
        helperText={isNew ? undefined : t("accounting.users.passwordKeep")}
        rules={{
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
        }}
      />
      <FormTextField
        form={form}
        name="confirm"
        type="password"
        autoComplete="new-password"
        label={t("accounting.fields.confirmPassword")}
        rules={{
          validate: (value, all) => rule(() => checkPasswordConfirmation(all.password, value))(value),
        }}
      />
    </>
  );
}

/** The plugins (notification, accounting, keychain) that enable features for the person, each saying what it enables. */
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
                  sx={{ alignItems: "flex-start", maxWidth: 300, mr: 3, mb: 1 }}
                  label={
                    <Stack sx={{ pt: 1 }}>
                      <span>{t(`accounting.plugins.${plugin}`)}</span>
                      <Typography
                        variant="caption"
                        color="text.secondary"
                        data-testid={`plugin-hint-${plugin}`}
                      >
                        {t(`accounting.pluginHints.${plugin}`)}
                      </Typography>
                    </Stack>
                  }
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

interface TagScopeFieldProps {
  control: Control<UserFormValues>;
  frequencies: Readonly<Record<string, number>> | undefined;
  isDisabled: boolean;
}

/** The routers a person is limited to (ADR 041): tags, one of which a router must carry; none: all. */
export function TagScopeField({ control, frequencies, isDisabled }: TagScopeFieldProps) {
  const { t } = useTranslation();
  return (
    <Grid size={12}>
      <Controller
        control={control}
        name="tag_scope"
        render={({ field }) => (
          <Stack spacing={0.5} data-testid="user-tag-scope">
            <TagsInput
              value={field.value}
              onChange={field.onChange}
              frequencies={frequencies}
              label={t("accounting.users.tagScope")}
              limitTags={5}
              size="medium"
              isFullWidth
              isDisabled={isDisabled}
            />
            <Typography variant="caption" color="text.secondary">
              {t(field.value.length > 0 ? "accounting.users.tagScopeHint" : "accounting.users.tagScopeNone")}
            </Typography>
          </Stack>
        )}
      />
    </Grid>
  );
}
