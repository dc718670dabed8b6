import type { TotpEnrolment as Enrolment, SecondFactorStatus } from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import Divider from "@mui/material/Divider";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { isApiError } from "../../app/api/ApiError";
import { apiErrorText } from "../../app/api/handleTransportError";
import { formatMoment } from "../../app/format";
import { pushInfoMessage } from "../../app/messages/messageStore";
import { DeleteButton } from "../../components/DeleteButton";
import { QueryState } from "../../components/QueryState";
import { RecoveryCodesPanel } from "./RecoveryCodesPanel";
import { secondFactorQueryOptions, useSecondFactorActions } from "./secondFactor.queries";
import { TotpEnrolment } from "./TotpEnrolment";

/** A passkey ceremony the browser refused or the person cancelled (not a server answer). */
function passkeyErrorText(error: unknown, fallback: string): string {
  return isApiError(error) ? apiErrorText(error) : fallback;
}

function SecondFactorBody({ status, isPending }: { status: SecondFactorStatus; isPending: boolean }) {
  const { t, i18n } = useTranslation();
  const actions = useSecondFactorActions();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [passkeyName, setPasskeyName] = useState(() => t("secondFactor.passkeyNameDefault"));
  const hasFactor = status.totp || status.passkeys.length > 0;

  const showCodes = (answer: { recovery_codes: string[] | null }) => {
    pushInfoMessage({ level: "success", text: t("secondFactor.enrolled") });
    if (answer.recovery_codes) setCodes(answer.recovery_codes);
  };

  return (
    <Stack spacing={2}>
      {isPending ? (
        <Alert severity="warning" data-testid="second-factor-required">
          {t("secondFactor.requiredNotice")}
        </Alert>
      ) : !hasFactor ? (
        <Typography variant="body2" color="text.secondary">
          {t("secondFactor.optionalIntro")}
        </Typography>
      ) : null}
      {codes ? <RecoveryCodesPanel codes={codes} onDone={() => setCodes(null)} /> : null}

      <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap", rowGap: 1 }}>
        <Typography variant="subtitle2" sx={{ flexGrow: 1 }}>
          {t("secondFactor.app")}
        </Typography>
        <Chip
          size="small"
          color={status.totp ? "success" : "default"}
          label={status.totp ? t("secondFactor.appOn") : t("secondFactor.appOff")}
        />
        {status.totp ? (
          <DeleteButton
            hasText
            label={t("secondFactor.removeApp")}
            onDelete={() => actions.removeTotp.mutate()}
          />
        ) : enrolment ? null : (
          <Button
            variant="outlined"
            loading={actions.startTotp.isPending}
            onClick={() => actions.startTotp.mutate(undefined, { onSuccess: setEnrolment })}
          >
            {t("secondFactor.setUpApp")}
          </Button>
        )}
      </Stack>
      {enrolment && !status.totp ? (
        <TotpEnrolment
          enrolment={enrolment}
          isPending={actions.confirmTotp.isPending}
          error={actions.confirmTotp.error}
          onCancel={() => setEnrolment(null)}
          onConfirm={(code) =>
            actions.confirmTotp.mutate(code, {
              onSuccess: (answer) => {
                setEnrolment(null);
                showCodes(answer);
              },
            })
          }
        />
      ) : null}

      <Divider />
      <Typography variant="subtitle2">{t("secondFactor.passkeys")}</Typography>
      {status.passkeys.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t("secondFactor.noPasskeys")}
        </Typography>
      ) : (
        <Stack spacing={1} data-testid="passkey-list">
          {status.passkeys.map((passkey) => (
            <Stack key={passkey._id} direction="row" spacing={1} sx={{ alignItems: "center" }}>
              <Stack sx={{ flexGrow: 1, minWidth: 0 }}>
                <Typography variant="body2" noWrap>
                  {passkey.name}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {passkey.last_used
                    ? t("secondFactor.lastUsed", { when: formatMoment(passkey.last_used, i18n.language) })
                    : t("secondFactor.neverUsed")}
                </Typography>
              </Stack>
              <DeleteButton
                label={t("secondFactor.removePasskey")}
                onDelete={() => actions.removePasskey.mutate(passkey._id)}
              />
            </Stack>
          ))}
        </Stack>
      )}
      {status.is_webauthn_available ? (
        <Stack direction={{ xs: "column", sm: "row" }} spacing={1} sx={{ alignItems: { sm: "flex-start" } }}>
          <TextField
            name="passkey_name"
            size="small"
            label={t("secondFactor.passkeyName")}
            value={passkeyName}
            onChange={(event) => setPasskeyName(event.target.value)}
            slotProps={{ htmlInput: { maxLength: 64 } }}
          />
          <Button
            variant="outlined"
            loading={actions.addPasskey.isPending}
            disabled={passkeyName.trim() === ""}
            onClick={() => actions.addPasskey.mutate(passkeyName.trim(), { onSuccess: showCodes })}
          >
            {t("secondFactor.addPasskey")}
          </Button>
        </Stack>
      ) : (
        <Typography variant="caption" color="text.secondary">
          {t("secondFactor.passkeysUnavailable")}
        </Typography>
      )}
      {actions.addPasskey.isError ? (
        <Alert severity="error">
          {passkeyErrorText(actions.addPasskey.error, t("secondFactor.passkeyFailed"))}
        </Alert>
      ) : null}

      {hasFactor ? (
        <>
          <Divider />
          <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap", rowGap: 1 }}>
            <Typography variant="subtitle2" sx={{ flexGrow: 1 }}>
              {t("secondFactor.recoveryCodes")}
            </Typography>
            <Typography variant="body2" color="text.secondary" data-testid="recovery-left">
              {t("secondFactor.recoveryLeft", { count: status.recovery_codes_left })}
            </Typography>
            <Button
              variant="outlined"
              loading={actions.renewCodes.isPending}
              onClick={() =>
                actions.renewCodes.mutate(undefined, {
                  onSuccess: (answer) => setCodes(answer.recovery_codes),
                })
              }
            >
              {t("secondFactor.newRecoveryCodes")}
            </Button>
          </Stack>
        </>
      ) : null}
    </Stack>
  );
}

/** The profile page's second factor: authenticator app, passkeys, recovery codes (ADR 039). */
export function SecondFactorCard({ isPending }: { isPending: boolean }) {
  const { t } = useTranslation();
  const status = useQuery(secondFactorQueryOptions());
  return (
    <Card data-testid="second-factor-card">
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
          {t("secondFactor.title")}
        </Typography>
        <QueryState query={status}>
          {(data) => <SecondFactorBody status={data} isPending={isPending} />}
        </QueryState>
      </CardContent>
    </Card>
  );
}
