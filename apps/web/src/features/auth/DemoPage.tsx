import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { apiErrorText } from "../../app/api/handleTransportError";
import { signIn } from "../../app/session/session.api";
import { Spinner } from "../../app/signedOut/icons";
import { Alert, Button } from "../../app/signedOut/parts";
import { useCall } from "../../app/signedOut/useCall";

/**
 * /demo: signs in as the read-only demo user; the route guard then opens the dashboard. Plain markup
 * (ADR 018, round 4): it shows in the signed-out shell.
 */
export function DemoPage() {
  const { t } = useTranslation();
  const started = useRef(false);
  const demo = useCall(() => signIn({ demo: true }));
  const { call } = demo;

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    call(undefined);
  }, [call]);

  return (
    <div className="so-stack so-stack-16 so-centered" style={{ maxWidth: 480 }}>
      <h1 data-testid="page-title" className="so-h5">
        {t("routes.demo")}
      </h1>
      {demo.isError ? (
        <>
          <div style={{ width: "100%" }}>
            <Alert severity="error">{apiErrorText(demo.error)}</Alert>
          </div>
          <div className="so-row-16">
            <Button variant="contained" onClick={() => call(undefined)}>
              {t("common.retry")}
            </Button>
            <Link to="/login" className="so-button so-button--text">
              {t("login.backToLogin")}
            </Link>
          </div>
        </>
      ) : (
        <>
          <Spinner label={t("app.loading")} />
          <p className="so-body1 so-secondary">{t("demo.signingIn")}</p>
        </>
      )}
    </div>
  );
}
