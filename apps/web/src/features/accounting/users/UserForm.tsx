import {
  defaultPluginsFor,
  mayBeJunior,
  mayHaveTagScope,
  type PasswordRules,
  type Role,
  roleLabelKey,
  validateRole,
  validateText,
  validateUsername,
} from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { apiErrorText } from "../../../app/api/handleTransportError";
import { FormTextField, FormToggle, HALF_ROW } from "../../../components/forms/formFields";
import { rule } from "../../../components/forms/formRules";
import { domainListQueryOptions } from "../domains/domains.queries";
import { policyListQueryOptions, policyQueryOptions } from "../policies/policies.queries";
import { PolicySelectField } from "../shared/PolicySelectField";
import { PasswordFields, PluginsField, TagScopeField } from "./UserFormParts";
import {
  type EditableUser,
  fromUserForm,
  optionalEmail,
  optionalPhone,
  toUserForm,
  type UserFormMode,
  type UserFormShape,
  type UserFormValues,
  type UserSaveBody,
} from "./userForm";

interface UserFormProps {
  user: EditableUser | null;
  mode: UserFormMode;
  /** The roles on offer; null: the role is fixed by the page (a domain admin, a superuser). */
  roleOptions: Role[] | null;
  /** The role a person without a role field gets, for the password rules. */
  fixedRole?: Role;
  shape: Omit<UserFormShape, "isNew" | "hasRole">;
  isSaving: boolean;
  error: unknown;
  onSave: (body: UserSaveBody) => void;
  /** Extra actions beside Save (a delete button). */
  actions?: ReactNode;
  /** The domain's tags and how many routers carry each, suggested in the tag scope field. */
  tagFrequencies?: Readonly<Record<string, number>>;
}

/** A person's fields with the contract's validators: users, domain admins and superusers alike. */
export function UserForm(props: UserFormProps) {
  const { t } = useTranslation();
  const { user, mode } = props;
  const isNew = user === null;
  const shape: UserFormShape = { ...props.shape, isNew, hasRole: props.roleOptions !== null };
  const defaultRole = props.roleOptions?.length === 1 ? props.roleOptions[0] : props.fixedRole;
  // A new person starts with the plugins their role needs to do its job (issue 11: a new domain
  // admin got none, and then met 'insufficient rights' on its own domain's policy).
  const defaults =
    isNew && defaultRole !== undefined
      ? {
          ...(props.roleOptions?.length === 1 ? { role: defaultRole } : {}),
          plugins: defaultPluginsFor(defaultRole),
        }
      : {};
  const form = useForm<UserFormValues>({ defaultValues: toUserForm(user, defaults), mode: "onTouched" });
  const policyId = form.watch("policy_id");
  const role = form.watch("role");
  const policies = useQuery({ ...policyListQueryOptions(), enabled: shape.hasPolicy && mode === "full" });
  const policy = useQuery({
    ...policyQueryOptions(policyId),
    enabled: policyId !== "" && mode !== "readOnly",
  });
  const domains = useQuery({ ...domainListQueryOptions(), enabled: shape.hasDomain && isNew });
  const rules: PasswordRules | null = policyId === "" ? null : (policy.data ?? null);
  const effectiveRole = role === "" ? (props.fixedRole ?? 4) : role;
  const isReadOnly = mode === "readOnly";
  const isPasswordOnly = mode === "selfPassword";

  const handleSubmit = form.handleSubmit((values) => props.onSave(fromUserForm(values, shape, mode)));

  const passwordFields = (
    <PasswordFields
      form={form}
      isNew={isNew}
      isRequired={isNew || isPasswordOnly}
      rules={rules}
      isAdmin={effectiveRole <= 2}
    />
  );

  return (
    <Card variant="outlined">
      <CardContent component="form" noValidate onSubmit={handleSubmit}>
        <Stack spacing={3}>
          {isReadOnly ? <Alert severity="info">{t("accounting.readOnly")}</Alert> : null}
          {isPasswordOnly ? <Alert severity="info">{t("accounting.users.selfPasswordOnly")}</Alert> : null}
          {props.error ? <Alert severity="error">{apiErrorText(props.error)}</Alert> : null}
          <fieldset
            disabled={isReadOnly || isPasswordOnly}
            style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}
          >
            <Grid container spacing={2}>
              <FormTextField
                form={form}
                name="username"
                autoComplete="off"
                label={t("accounting.fields.username")}
                rules={{ validate: rule(validateUsername) }}
              />
              <FormTextField
                form={form}
                name="full_name"
                label={t("accounting.fields.fullName")}
                rules={{ validate: rule(validateText) }}
              />
              {props.roleOptions ? (
                <Grid size={HALF_ROW}>
                  <Controller
                    control={form.control}
                    name="role"
                    rules={{ validate: rule(validateRole) }}
                    render={({ field, fieldState }) => (
                      <TextField
                        select
                        fullWidth
                        label={t("accounting.fields.role")}
                        value={field.value}
                        onChange={(event) => field.onChange(Number(event.target.value))}
                        onBlur={field.onBlur}
                        error={Boolean(fieldState.error)}
                        helperText={fieldState.error?.message}
                        slotProps={{ select: { inputProps: { "data-testid": "role-select" } } }}
                      >
                        {(user && !props.roleOptions?.includes(user.role)
                          ? [user.role, ...(props.roleOptions ?? [])]
                          : (props.roleOptions ?? [])
                        ).map((option) => (
                          <MenuItem key={option} value={option}>
                            {t(`roles.${roleLabelKey(option)}`)}
                          </MenuItem>
                        ))}
                      </TextField>
                    )}
                  />
                </Grid>
              ) : null}
              {props.roleOptions && role !== "" && mayBeJunior(role) ? (
                <Grid size={HALF_ROW} sx={{ display: "flex", alignItems: "center" }}>
                  <FormToggle
                    control={form.control}
                    name="is_junior"
                    label={t("accounting.users.junior")}
                    isCheckbox
                  />
                </Grid>
              ) : null}
              {shape.hasDomain && isNew ? (
                <FormTextField
                  form={form}
                  name="domain_id"
                  select
                  label={t("accounting.fields.domain")}
                  value={form.watch("domain_id")}
                  rules={{ validate: (value) => value !== "" || t("accounting.users.domainRequired") }}
                >
                  {(domains.data ?? []).map((domain) => (
                    <MenuItem key={domain._id} value={domain._id}>
                      {domain.name}
                    </MenuItem>
                  ))}
                </FormTextField>
              ) : null}
              <FormTextField
                form={form}
                name="email"
                type="email"
                label={t("accounting.fields.email")}
                rules={{ validate: rule(optionalEmail) }}
              />
              <FormTextField
                form={form}
                name="phone"
                type="tel"
                label={t("accounting.fields.phone")}
                rules={{ validate: rule(optionalPhone) }}
              />
              {shape.hasPolicy ? (
                <PolicySelectField
                  control={form.control}
                  name="policy_id"
                  policies={policies.data}
                  currentName={policy.data?.name}
                />
              ) : null}
              {isNew ? passwordFields : null}
              {shape.hasPlugins ? <PluginsField control={form.control} /> : null}
              {shape.hasTagScope && role !== "" && mayHaveTagScope(role) ? (
                <TagScopeField
                  control={form.control}
                  frequencies={props.tagFrequencies}
                  isDisabled={isReadOnly || isPasswordOnly}
                />
              ) : null}
              {isNew ? null : (
                <Grid size={12}>
                  <FormToggle control={form.control} name="blocked" label={t("accounting.fields.blocked")} />
                </Grid>
              )}
            </Grid>
          </fieldset>
          {!isNew && !isReadOnly ? (
            <Grid container spacing={2}>
              {passwordFields}
            </Grid>
          ) : null}
          {isReadOnly && !props.actions ? null : (
            <Stack direction="row" spacing={1} sx={{ justifyContent: "flex-end" }}>
              {props.actions}
              {isReadOnly ? null : (
                <Button type="submit" variant="contained" loading={props.isSaving}>
                  {t("common.save")}
                </Button>
              )}
            </Stack>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
