import {
  hasNoDomain,
  LOCALES,
  resolveLocale,
  TRANSPORT_TYPES,
  type Transport,
  validateText,
} from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { apiErrorText } from "../../../app/api/handleTransportError";
import { pushInfoMessage } from "../../../app/messages/messageStore";
import { notice } from "../../../app/messages/texts";
import { useOffers } from "../../../app/session/useOffers";
import { useSession } from "../../../app/session/useSession";
import { DeleteButton } from "../../../components/DeleteButton";
import { FormTextField } from "../../../components/forms/formFields";
import { rule } from "../../../components/forms/formRules";
import { testAnswerText } from "../providerAnswer";
import { type TransportFormValues, toTransportBody, toTransportForm } from "../transportForm";
import { useDeleteTransport, useSaveTransport, useTestTransport } from "../transports.queries";
import { ChatLookup } from "./ChatLookup";
import { SmtpFields, TelegramFields, WebhookFields } from "./TransportFields";

/**
 * A notification provider (spec section 3): its type's fields, the message prefix and language, a
 * test message from the form, and (Telegram) the chat-id lookup. Secrets are write-only. Read-only
 * for those who may not change channels (assistants, operators: spec section 6).
 */
export function TransportForm({ transport }: { transport: Transport | null }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const offers = useOffers();
  const user = useSession();
  const isNew = transport === null;
  const isReadOnly = !offers("transports.edit");
  const form = useForm<TransportFormValues>({
    defaultValues: toTransportForm(transport, resolveLocale(i18n.language)),
    mode: "onTouched",
  });
  const save = useSaveTransport(transport?._id ?? null);
  const remove = useDeleteTransport();
  const test = useTestTransport();
  const [testResult, setTestResult] = useState<{ ok: boolean; text: string } | null>(null);
  const type = form.watch("type");
  const fieldProps = {
    form,
    isNew,
    hasSecret: transport?.has_secret ?? false,
    isReadOnly,
    isSuperuser: user ? hasNoDomain(user.role) : false,
  };

  const handleSubmit = form.handleSubmit((values) =>
    save.mutate(toTransportBody(values, isNew), {
      onSuccess: (saved) => {
        pushInfoMessage({ level: "success", text: notice("informationUpdated") });
        if (isNew) navigate(`/notifications/transport/${saved._id}/edit`, { replace: true });
      },
    }),
  );

  const handleTest = form.handleSubmit((values) => {
    setTestResult(null);
    test.mutate(
      { ...toTransportBody(values, isNew), ...(transport ? { transport_id: transport._id } : {}) },
      {
        onSuccess: (answer) =>
          setTestResult({
            ok: answer.ok,
            text: testAnswerText(answer, t("notifications.transport.testSent")),
          }),
        onError: (error) => setTestResult({ ok: false, text: apiErrorText(error) }),
      },
    );
  });

  return (
    <Card variant="outlined">
      <CardContent component="form" noValidate onSubmit={handleSubmit}>
        <Stack spacing={3}>
          {save.isError ? <Alert severity="error">{apiErrorText(save.error)}</Alert> : null}
          {transport && !transport.health.healthy ? (
            <Alert severity="error" data-testid="transport-health">
              {t("notifications.transport.unhealthy", {
                count: transport.health.failures,
                error: transport.health.last_error ?? "",
              })}
            </Alert>
          ) : null}
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, md: 6 }}>
              <Controller
                control={form.control}
                name="type"
                render={({ field }) => (
                  <TextField
                    select
                    fullWidth
                    label={t("notifications.transport.type")}
                    value={field.value}
                    onChange={field.onChange}
                    disabled={!isNew || isReadOnly}
                    slotProps={{ htmlInput: { "data-testid": "transport-type" } }}
                  >
                    {TRANSPORT_TYPES.map((option) => (
                      <MenuItem key={option} value={option}>
                        {t(`notifications.types.${option}`)}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
            </Grid>
            <FormTextField
              form={form}
              name="name"
              label={t("notifications.transport.name")}
              disabled={isReadOnly}
              rules={{ validate: rule(validateText) }}
            />
            {type === "telegram" ? <TelegramFields {...fieldProps} /> : null}
            {type === "webhook" ? <WebhookFields {...fieldProps} /> : null}
            {type === "smtp" ? <SmtpFields {...fieldProps} /> : null}
            <FormTextField
              form={form}
              name="prefix"
              label={t("notifications.transport.prefix")}
              helperText={t("notifications.transport.prefixHint")}
              disabled={isReadOnly}
            />
            <Grid size={{ xs: 12, md: 6 }}>
              <Controller
                control={form.control}
                name="language"
                render={({ field }) => (
                  <TextField
                    select
                    fullWidth
                    label={t("notifications.transport.language")}
                    value={field.value}
                    onChange={field.onChange}
                    disabled={isReadOnly}
                  >
                    {LOCALES.map((locale) => (
                      <MenuItem key={locale} value={locale}>
                        {t(`notifications.languages.${locale}`)}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
            </Grid>
          </Grid>
          {type === "telegram" && !isReadOnly ? (
            <ChatLookup
              token={form.watch("bot_token")}
              transportId={transport?._id}
              onPick={(chatId) =>
                form.setValue("chat_id", chatId, { shouldValidate: true, shouldDirty: true })
              }
            />
          ) : null}
          {testResult ? (
            <Alert severity={testResult.ok ? "success" : "error"} data-testid="transport-test-result">
              {testResult.text}
            </Alert>
          ) : null}
          {isReadOnly ? null : (
            <Stack
              direction="row"
              spacing={1}
              sx={{ justifyContent: "flex-end", flexWrap: "wrap", rowGap: 1 }}
            >
              {transport && offers("transports.delete") ? (
                <DeleteButton
                  hasText
                  onDelete={() =>
                    remove.mutate(transport._id, {
                      onSuccess: () => navigate("/notifications?tab=transports", { replace: true }),
                    })
                  }
                />
              ) : null}
              <Button variant="outlined" loading={test.isPending} onClick={() => void handleTest()}>
                {t("notifications.transport.test")}
              </Button>
              <Button type="submit" variant="contained" loading={save.isPending}>
                {isNew ? t("notifications.transport.create") : t("common.save")}
              </Button>
            </Stack>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
