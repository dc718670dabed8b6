import {
  type FormError,
  generateDeviceKey,
  TEXT_MAX_LENGTH,
  validateDeviceIdent,
  validateHexKey,
} from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import InputAdornment from "@mui/material/InputAdornment";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { formError } from "../../../app/messages/texts";
import { CopyButton } from "../../../components/CopyButton";
import { TagsInput } from "../../../components/list-card";
import { tagFrequenciesQueryOptions } from "../devices.queries";

/** Values of the one-device form. */
export interface DeviceFormValues {
  ident: string;
  description: string;
  tags: string[];
  aes_key: string;
}

function errorOrTrue(error: FormError | null): string | true {
  return error === null ? true : formError(error);
}

interface DeviceFormProps {
  /** Creating asks for the ident; editing shows it read-only. */
  isNew: boolean;
  initial: DeviceFormValues;
  isSaving: boolean;
  /** Shows the values without letting them change, and no Save (for those the table lets only look). */
  isReadOnly?: boolean;
  /** The server's refusal, already translated; shown above the buttons. */
  serverError: string | null;
  onSubmit: (values: DeviceFormValues) => void;
  /** Extra buttons beside Save (the delete button on the edit page). */
  extra?: ReactNode;
  /** Shown beside the form with the ident and key as they stand (the create form's connect preview). */
  renderAside?: (values: { ident: string; aesKey: string }) => ReactNode;
}

/**
 * The device form: ident (new only), description, tags and the AES key, each checked with the
 * contract's validators as it is typed, so errors show before submit.
 */
export function DeviceForm({
  isNew,
  initial,
  isSaving,
  isReadOnly = false,
  serverError,
  onSubmit,
  extra,
  renderAside,
}: DeviceFormProps) {
  const { t } = useTranslation();
  const tags = useQuery(tagFrequenciesQueryOptions());
  const form = useForm<DeviceFormValues>({ values: initial, mode: "onChange" });
  const { errors } = form.formState;
  const key = form.watch("aes_key");
  const ident = form.watch("ident");
  // A key from the browser's cryptographic source (crypto.getRandomValues), in the field to copy.
  const handleGenerateKey = () =>
    form.setValue("aes_key", generateDeviceKey(), { shouldValidate: true, shouldDirty: true });

  const formElement = (
    <Stack
      component="form"
      noValidate
      spacing={2.5}
      onSubmit={form.handleSubmit(onSubmit)}
      sx={{ maxWidth: 640 }}
    >
      <TextField
        label={t("fleet.columns.ident")}
        required={isNew}
        disabled={!isNew}
        autoFocus={isNew}
        error={Boolean(errors.ident)}
        helperText={errors.ident?.message ?? (isNew ? t("fleet.form.identHelp") : undefined)}
        {...form.register("ident", {
          validate: (value) => (isNew ? errorOrTrue(validateDeviceIdent(value)) : true),
        })}
      />
      <TextField
        label={t("fleet.columns.description")}
        disabled={isReadOnly}
        multiline
        minRows={2}
        error={Boolean(errors.description)}
        helperText={errors.description?.message}
        {...form.register("description", {
          validate: (value) => value.trim().length <= TEXT_MAX_LENGTH || formError("textTooLong"),
        })}
      />
      <Controller
        control={form.control}
        name="tags"
        render={({ field }) => (
          <TagsInput
            isDisabled={isReadOnly}
            value={field.value}
            onChange={field.onChange}
            frequencies={tags.data}
            limitTags={8}
            isFullWidth
            size="medium"
          />
        )}
      />
      {/* A key is never shown, so a read-only form has nothing to show in its field. */}
      {isReadOnly ? null : (
        <TextField
          label={t("fleet.form.key")}
          autoComplete="off"
          error={Boolean(errors.aes_key)}
          helperText={errors.aes_key?.message ?? t("fleet.form.keyHelp")}
          slotProps={{
            htmlInput: { spellCheck: false, style: { fontFamily: "monospace" }, "data-testid": "key-input" },
            // A generated key arrives without typing: the label must move up (and the outline open) by hand.
            inputLabel: { shrink: key !== "" ? true : undefined },
            input: {
              notched: key !== "" ? true : undefined,
              endAdornment: (
                <InputAdornment position="end">
                  {key.trim() !== "" ? (
                    <CopyButton text={key.trim()} label={t("insight.connect.copyKey")} />
                  ) : null}
                  <Button size="small" onClick={handleGenerateKey} data-testid="generate-key">
                    {t("insight.connect.generate")}
                  </Button>
                </InputAdornment>
              ),
            },
          }}
          {...form.register("aes_key", {
            validate: (value) => errorOrTrue(validateHexKey(value.trim(), { allowEmpty: true })),
          })}
        />
      )}
      {serverError ? (
        <Alert severity="error" data-testid="form-error">
          {serverError}
        </Alert>
      ) : null}
      <Stack direction="row" sx={{ gap: 2, flexWrap: "wrap" }}>
        {isReadOnly ? null : (
          <Button type="submit" variant="contained" disabled={isSaving}>
            {isNew ? t("fleet.form.create") : t("common.save")}
          </Button>
        )}
        {extra}
      </Stack>
    </Stack>
  );
  if (!renderAside) return formElement;
  return (
    <Box
      sx={{
        display: "grid",
        gridTemplateColumns: { xs: "1fr", lg: "minmax(0, 640px) minmax(0, 1fr)" },
        gap: 3,
      }}
    >
      {formElement}
      <Box sx={{ minWidth: 0 }}>{renderAside({ ident, aesKey: key })}</Box>
    </Box>
  );
}
