import {
  allowEmpty,
  type DomainDetail,
  validateEmail,
  validatePhone,
  validateText,
  validateTin,
} from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Grid from "@mui/material/Grid";
import Stack from "@mui/material/Stack";
import { useQuery } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { apiErrorText } from "../../../app/api/handleTransportError";
import { pushInfoMessage } from "../../../app/messages/messageStore";
import { notice } from "../../../app/messages/texts";
import { FormTextField } from "../../../components/forms/formFields";
import { parseWhole, rule } from "../../../components/forms/formRules";
import { policyListQueryOptions } from "../policies/policies.queries";
import { PolicySelectField } from "../shared/PolicySelectField";
import { useSaveDomain } from "./domains.queries";

interface DomainFormValues {
  name: string;
  full_name: string;
  tin: string;
  email: string;
  phone: string;
  manager: string;
  policy_id: string;
  device_limit: string;
}

function toForm(domain: DomainDetail | null): DomainFormValues {
  return {
    name: domain?.name ?? "",
    full_name: domain?.full_name ?? "",
    tin: domain?.tin ?? "",
    email: domain?.email ?? "",
    phone: domain?.phone ?? "",
    manager: domain?.manager ?? "",
    policy_id: domain?.policy_id ?? "",
    device_limit: domain?.device_limit === null || domain === null ? "" : String(domain.device_limit),
  };
}

const optionalEmail = allowEmpty((value: string) => validateEmail(value));
const optionalPhone = allowEmpty((value: string) => validatePhone(value));

/** Every field of a domain (spec section 3) with its validation: TIN, phone, email, device limit, policy. */
export function DomainForm({ domain }: { domain: DomainDetail | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useForm<DomainFormValues>({ defaultValues: toForm(domain), mode: "onTouched" });
  const save = useSaveDomain(domain?._id ?? null);
  const policies = useQuery(policyListQueryOptions());

  const handleSubmit = form.handleSubmit((values) =>
    save.mutate(
      {
        name: values.name.trim(),
        full_name: values.full_name.trim(),
        tin: values.tin.trim(),
        email: values.email.trim() || null,
        phone: values.phone.trim() || null,
        manager: values.manager.trim() || null,
        policy_id: values.policy_id || null,
        device_limit: parseWhole(values.device_limit),
      },
      {
        onSuccess: (saved) => {
          pushInfoMessage({ level: "success", text: notice("informationUpdated") });
          if (!domain) navigate(`/domain/${saved._id}`, { replace: true });
        },
      },
    ),
  );

  const text = (
    name: keyof DomainFormValues,
    label: string,
    validate: (value: string) => string | true,
    isRequired = false,
  ) => <FormTextField form={form} name={name} label={label} rules={{ validate }} required={isRequired} />;

  return (
    <Card variant="outlined">
      <CardContent component="form" noValidate onSubmit={handleSubmit}>
        <Stack spacing={3}>
          {save.isError ? <Alert severity="error">{apiErrorText(save.error)}</Alert> : null}
          <Grid container spacing={2}>
            {text("name", t("accounting.fields.name"), rule(validateText), true)}
            {text("full_name", t("accounting.fields.fullName"), rule(validateText), true)}
            {text("tin", t("accounting.fields.tin"), rule(validateTin), true)}
            {text("email", t("accounting.fields.email"), rule(optionalEmail))}
            {text("phone", t("accounting.fields.phone"), rule(optionalPhone))}
            {text("manager", t("accounting.fields.manager"), () => true)}
            {text("device_limit", t("accounting.domains.deviceLimit"), (value) => {
              const limit = parseWhole(value);
              return limit === null || !Number.isNaN(limit) || t("accounting.domains.deviceLimitInvalid");
            })}
            <PolicySelectField
              control={form.control}
              name="policy_id"
              policies={policies.data}
              currentName={domain?.policy?.name}
            />
          </Grid>
          <Stack direction="row" sx={{ justifyContent: "flex-end" }}>
            <Button type="submit" variant="contained" loading={save.isPending}>
              {domain ? t("common.save") : t("accounting.domains.create")}
            </Button>
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  );
}
