import { isPasswordExpiringSoon, passwordDaysLeft } from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useNow } from "../../components/useNow";
import { notice } from "../messages/texts";
import { useSession } from "../session/useSession";

/** Warns while under 15 days of the password remain (spec section 9); recounts every minute. */
export function PasswordExpiryBanner() {
  const { t } = useTranslation();
  const user = useSession();
  // The console's one clock ticks more often than the minute spec section 9 asks of the banner.
  const now = useNow();

  const expireDate = user?.password_expire_date ?? null;
  if (!isPasswordExpiringSoon(expireDate, now)) return null;
  const days = Math.max(0, passwordDaysLeft(expireDate, now) ?? 0);
  return (
    <Alert
      data-testid="password-expiry-banner"
      severity="warning"
      square
      action={
        <Button color="inherit" size="small" component={Link} to="/profile">
          {t("passwordExpiry.change")}
        </Button>
      }
    >
      {notice("passwordExpiresSoon", { days })}
    </Alert>
  );
}
