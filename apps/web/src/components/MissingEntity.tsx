import { defaultPathFor } from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { type ApiError, isApiError } from "../app/api/ApiError";
import { translateErrorCode } from "../app/messages/texts";
import { matchRoute } from "../app/navigation/resolveNavigation";
import { useSession } from "../app/session/useSession";

/** A read answered 404 (DEVICE_NOT_FOUND, USER_NOT_FOUND…): the object is gone, not the server broken. */
export function isMissingEntity(error: unknown): error is ApiError {
  return isApiError(error) && error.status === 404;
}

/**
 * What a page shows for an object that does not exist (deleted, or a wrong link): the code's own
 * text ("Device not found"), why that may be, and the way back — the route's back route, else the
 * start page. No retry: reading it again cannot bring it back (issue 11).
 */
export function MissingEntity({ error, isInset }: { error: ApiError; isInset?: boolean }) {
  const { t } = useTranslation();
  const user = useSession();
  const { pathname } = useLocation();
  const back = matchRoute(pathname)?.back ?? defaultPathFor(user);
  return (
    <Alert
      data-testid="entity-missing"
      severity="info"
      sx={isInset ? { m: 2 } : undefined}
      action={
        <Button color="inherit" size="small" component={Link} to={back} sx={{ whiteSpace: "nowrap" }}>
          {t("missing.back")}
        </Button>
      }
    >
      {translateErrorCode(error.code, error.message)}. {t("missing.text")}
    </Alert>
  );
}
