import {
  allowEmpty,
  validateBotToken,
  validateChatId,
  validateEmail,
  validateEmailList,
  validateHost,
  validateHttpUrl,
  validatePort,
  WEBHOOK_FORMATS,
} from "@cellfleet/contract";
import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import type { UseFormReturn } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormTextField, FormToggle } from "../../../components/forms/formFields";
import { rule } from "../../../components/forms/formRules";
import type { TransportFormValues } from "../transportForm";

interface FieldsProps {
  form: UseFormReturn<TransportFormValues>;
  isNew: boolean;
  /** A secret is stored already: its field may stay empty to keep it. */
  hasSecret: boolean;
  /** The person may only read the provider. */
  isReadOnly: boolean;
  /** Whether a superuser owns it: the mail's 'to' may then stay empty (spec section 5). */
  isSuperuser: boolean;
}

const optionalEmailList = (value: string) => validateEmailList(value);

/** The form's free-text fields. */
type SmtpTextField = "host" | "port" | "username" | "from" | "to" | "cc" | "bcc" | "subject";

/** A secret's field: write-only, required on a new provider, kept when left empty on a change. */
function SecretField({
  form,
  isNew,
  hasSecret,
  isReadOnly,
  name,
  label,
  validate,
}: FieldsProps & {
  name: "bot_token" | "webhook_url" | "password";
  label: string;
  validate: (value: string) => ReturnType<typeof validateBotToken> | ReturnType<typeof validateHttpUrl>;
}) {
  const { t } = useTranslation();
  const isOptional = !isNew && hasSecret;
  return (
    <FormTextField
      form={form}
      name={name}
      label={label}
      type="password"
      autoComplete="new-password"
      disabled={isReadOnly}
      cellSize={{ xs: 12, md: 6 }}
      helperText={
        isOptional ? t("notifications.transport.secretKept") : t("notifications.transport.secretWriteOnly")
      }
      rules={{ validate: rule(isOptional ? allowEmpty(validate) : validate) }}
    />
  );
}

/** Telegram: the bot token, chat id, forum topic, silent sending and content protection. */
export function TelegramFields(props: FieldsProps) {
  const { t } = useTranslation();
  const { form, isReadOnly } = props;
  return (
    <>
      <SecretField
        {...props}
        name="bot_token"
        label={t("notifications.transport.botToken")}
        validate={validateBotToken}
      />
      <FormTextField
        form={form}
        name="chat_id"
        label={t("notifications.transport.chatId")}
        helperText={t("notifications.transport.chatIdHint")}
        disabled={isReadOnly}
        rules={{ validate: rule(validateChatId) }}
      />
      <FormTextField
        form={form}
        name="message_thread_id"
        label={t("notifications.transport.threadId")}
        helperText={t("notifications.transport.threadIdHint")}
        disabled={isReadOnly}
        inputMode="numeric"
        rules={{
          validate: (value) =>
            value.trim() === "" ||
            /^[1-9]\d*$/.test(value.trim()) ||
            t("notifications.transport.threadIdInvalid"),
        }}
      />
      <Grid size={{ xs: 12, md: 6 }}>
        <FormToggle
          control={form.control}
          name="silent"
          label={t("notifications.transport.silent")}
          disabled={isReadOnly}
        />
        <FormToggle
          control={form.control}
          name="protect_content"
          label={t("notifications.transport.protect")}
          disabled={isReadOnly}
        />
      </Grid>
    </>
  );
}

/** A webhook chat: its URL (the secret), the chat's format, and the sender's name. */
export function WebhookFields(props: FieldsProps) {
  const { t } = useTranslation();
  const { form, isReadOnly } = props;
  return (
    <>
      <SecretField
        {...props}
        name="webhook_url"
        label={t("notifications.transport.webhookUrl")}
        validate={validateHttpUrl}
      />
      <FormTextField
        form={form}
        name="format"
        select
        label={t("notifications.transport.format")}
        disabled={isReadOnly}
        value={form.watch("format")}
      >
        {WEBHOOK_FORMATS.map((format) => (
          <MenuItem key={format} value={format}>
            {t(`notifications.formats.${format}`)}
          </MenuItem>
        ))}
      </FormTextField>
      <FormTextField
        form={form}
        name="display_name"
        label={t("notifications.transport.displayName")}
        disabled={isReadOnly}
      />
    </>
  );
}

/** SMTP: server, port, TLS (STARTTLS) or SSL (implicit TLS), login, sender and recipients, subject. */
export function SmtpFields(props: FieldsProps) {
  const { t } = useTranslation();
  const { form, isReadOnly, isSuperuser } = props;
  const text = (
    name: SmtpTextField,
    label: string,
    validate?: (value: string) => string | true,
    helperText?: string,
  ) => (
    <FormTextField
      form={form}
      name={name}
      label={label}
      helperText={helperText}
      disabled={isReadOnly}
      rules={validate ? { validate } : undefined}
    />
  );
  return (
    <>
      {text("host", t("notifications.transport.host"), rule(validateHost))}
      {text("port", t("notifications.transport.port"), rule(validatePort))}
      <Grid size={{ xs: 12, md: 6 }}>
        <FormToggle
          control={form.control}
          name="tls"
          label={t("notifications.transport.tls")}
          disabled={isReadOnly}
        />
        <FormToggle
          control={form.control}
          name="ssl"
          label={t("notifications.transport.ssl")}
          disabled={isReadOnly}
        />
      </Grid>
      {text("username", t("notifications.transport.username"))}
      <SecretField
        {...props}
        name="password"
        label={t("notifications.transport.password")}
        validate={() => null}
      />
      {text("from", t("notifications.transport.from"), rule(validateEmail))}
      {text(
        "to",
        t("notifications.transport.to"),
        rule(
          isSuperuser
            ? optionalEmailList
            : (value: string) => (value.trim() === "" ? "required" : validateEmailList(value)),
        ),
        t(isSuperuser ? "notifications.transport.toHintSuperuser" : "notifications.transport.toHint"),
      )}
      {text("cc", t("notifications.transport.cc"), rule(optionalEmailList))}
      {text("bcc", t("notifications.transport.bcc"), rule(optionalEmailList))}
      {text(
        "subject",
        t("notifications.transport.subject"),
        undefined,
        t("notifications.transport.subjectHint"),
      )}
    </>
  );
}
