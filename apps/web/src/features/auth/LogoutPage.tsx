import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { signOut } from "../../app/session/session.api";
import { Spinner } from "../../app/signedOut/icons";

/**
 * /logout: ends the session on the server and here; the route guard then shows /login. Plain markup
 * (ADR 018, round 4): it shows in either shell.
 */
export function LogoutPage() {
  const { t } = useTranslation();
  useEffect(() => {
    void signOut();
  }, []);
  return (
    <div className="so-stack so-stack-16 so-centered">
      <h1 data-testid="page-title" className="so-h5">
        {t("routes.logout")}
      </h1>
      <Spinner label={t("app.loading")} />
    </div>
  );
}
