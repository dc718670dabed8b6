import type { SecondFactorChallenge } from "@cellfleet/contract";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiErrorText } from "../../app/api/handleTransportError";
import { apiRequest } from "../../app/api/http";
import { signInSecondStep } from "../../app/session/session.api";
import { Alert, Button, Field } from "../../app/signedOut/parts";
import { useCall } from "../../app/signedOut/useCall";

type Challenge = SecondFactorChallenge["second_factor"];
type Way = "totp" | "recovery";

/** Signs the challenge with a passkey; the WebAuthn client is fetched on the first click (ADR 018). */
async function signWithPasskey(challengeToken: string, rememberBrowser: boolean): Promise<void> {
  const [{ startAuthentication }, options] = await Promise.all([
    import("@simplewebauthn/browser"),
    apiRequest("POST /api/login/second-factor/options", {
      body: { challenge_token: challengeToken },
      quiet: true,
    }),
  ]);
  // biome-ignore lint/suspicious/noExplicitAny: the server's options are @simplewebauthn's own JSON.
  const credential = await startAuthentication({ optionsJSON: options as any });
  await signInSecondStep({
    challenge_token: challengeToken,
    credential: credential as unknown as Record<string, unknown>,
    remember_browser: rememberBrowser,
  });
}

/**
 * /login's second step (ADR 039): a code from the authenticator app, a passkey, or a recovery
 * code; on success the session is stored and the route guard opens the person's default page.
 */
export function SecondFactorStep({ challenge, onBack }: { challenge: Challenge; onBack: () => void }) {
  const { t } = useTranslation();
  const hasApp = challenge.methods.includes("totp");
  const [way, setWay] = useState<Way>(hasApp ? "totp" : "recovery");
  const [code, setCode] = useState("");
  const [isRemembered, setRemembered] = useState(false);
  const submit = useCall((value: string) =>
    signInSecondStep(
      way === "totp"
        ? { challenge_token: challenge.challenge_token, totp: value, remember_browser: isRemembered }
        : {
            challenge_token: challenge.challenge_token,
            recovery_code: value,
            remember_browser: isRemembered,
          },
    ),
  );
  const passkey = useCall(() => signWithPasskey(challenge.challenge_token, isRemembered));
  const error = submit.isError ? submit.error : passkey.isError ? passkey.error : null;
  const isWebAuthnError = error instanceof Error && error.name !== "ApiError" && passkey.isError;

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim()) submit.call(code.trim());
  };

  return (
    <form className="so-card-content" noValidate onSubmit={handleSubmit} data-testid="second-factor-step">
      <div className="so-stack so-stack-20">
        <h1 data-testid="page-title" className="so-h5">
          {t("secondFactor.stepTitle")}
        </h1>
        <p className="so-body2 so-secondary">{t("secondFactor.stepIntro")}</p>
        {error ? (
          <Alert severity="error">
            {isWebAuthnError ? t("secondFactor.passkeyFailed") : apiErrorText(error)}
          </Alert>
        ) : null}
        {challenge.methods.includes("webauthn") ? (
          <Button
            variant="outlined"
            large
            isLoading={passkey.isPending}
            onClick={() => passkey.call(undefined)}
          >
            {t("secondFactor.usePasskey")}
          </Button>
        ) : null}
        {hasApp || way === "recovery" ? (
          <Field
            key={way}
            name={way === "totp" ? "totp" : "recovery_code"}
            label={way === "totp" ? t("secondFactor.code") : t("secondFactor.recoveryCode")}
            autoComplete="one-time-code"
            autoFocus
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
        ) : null}
        {challenge.remember_days > 0 ? (
          <label className="so-check">
            <input
              type="checkbox"
              name="remember_browser"
              checked={isRemembered}
              onChange={(event) => setRemembered(event.target.checked)}
            />
            <span>{t("secondFactor.rememberBrowser", { count: challenge.remember_days })}</span>
          </label>
        ) : null}
        <Button type="submit" variant="contained" large isLoading={submit.isPending}>
          {t("secondFactor.verify")}
        </Button>
        <hr className="so-divider" />
        <div className="so-row">
          {challenge.methods.includes("recovery") && hasApp ? (
            <button
              type="button"
              className="so-link"
              onClick={() => {
                setCode("");
                setWay(way === "totp" ? "recovery" : "totp");
              }}
            >
              {way === "totp" ? t("secondFactor.useRecoveryCode") : t("secondFactor.useApp")}
            </button>
          ) : (
            <span />
          )}
          <button type="button" className="so-link" onClick={onBack}>
            {t("secondFactor.back")}
          </button>
        </div>
      </div>
    </form>
  );
}
