import { allowEmpty, type FormError, type Profile, validateEmail, validatePhone } from "@cellfleet/contract";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { pushInfoMessage } from "../../app/messages/messageStore";
import { formError, notice } from "../../app/messages/texts";
import { useUpdateProfileDetails } from "./profile.queries";

interface DetailsForm {
  full_name: string;
  email: string;
  phone: string;
}

const optionalEmail = allowEmpty((value: string) => validateEmail(value));
const optionalPhone = allowEmpty((value: string) => validatePhone(value));

function errorOrTrue(error: FormError | null): string | true {
  return error === null ? true : formError(error);
}

function toForm(profile: Profile): DetailsForm {
  return { full_name: profile.full_name, email: profile.email ?? "", phone: profile.phone ?? "" };
}

/** Full name, email and phone with Save; a refusal (demo, permissions) arrives as an info message. */
export function ProfileDetailsForm({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const form = useForm<DetailsForm>({ values: toForm(profile) });
  const save = useUpdateProfileDetails();
  const { errors } = form.formState;

  const handleSubmit = form.handleSubmit((values) =>
    save.mutate(
      {
        full_name: values.full_name.trim(),
        email: values.email.trim() || null,
        phone: values.phone.trim() || null,
      },
      { onSuccess: () => pushInfoMessage({ level: "success", text: notice("informationUpdated") }) },
    ),
  );

  return (
    <Card variant="outlined">
      <CardContent component="form" noValidate onSubmit={handleSubmit}>
        <Stack spacing={2.5}>
          <Typography variant="h6" component="h2">
            {t("profile.details")}
          </Typography>
          <TextField
            label={t("profile.fullName")}
            autoComplete="name"
            error={Boolean(errors.full_name)}
            helperText={errors.full_name?.message}
            {...form.register("full_name", {
              validate: (value) => value.trim().length > 0 || formError("required"),
            })}
          />
          <TextField
            label={t("profile.email")}
            type="email"
            autoComplete="email"
            error={Boolean(errors.email)}
            helperText={errors.email?.message}
            {...form.register("email", { validate: (value) => errorOrTrue(optionalEmail(value)) })}
          />
          <TextField
            label={t("profile.phone")}
            type="tel"
            autoComplete="tel"
            error={Boolean(errors.phone)}
            helperText={errors.phone?.message}
            {...form.register("phone", { validate: (value) => errorOrTrue(optionalPhone(value)) })}
          />
          <Stack direction="row" sx={{ justifyContent: "flex-end" }}>
            <Button type="submit" variant="contained" loading={save.isPending}>
              {t("common.save")}
            </Button>
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  );
}
