import { type InfoMessageLevel, MESSAGE_TIMEOUT_MS } from "@cellfleet/contract";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { dismissInfoMessage, useCurrentInfoMessage } from "../messages/messageStore";
import { Icon } from "./icons";
import { Alert, type Severity } from "./parts";

const SEVERITY: Record<InfoMessageLevel, Severity> = {
  critical: "error",
  warning: "warning",
  info: "info",
  success: "success",
};

/**
 * The head of the info-message queue for a visitor (spec section 4), as the console's InfoMessageHost
 * shows it: a filled alert at the bottom for 5 seconds, paused while the pointer is on it.
 */
export function SignedOutMessage() {
  const { t } = useTranslation();
  const message = useCurrentInfoMessage();
  const [isHeld, setHeld] = useState(false);
  const id = message?.id ?? null;
  useEffect(() => {
    if (id === null || isHeld) return;
    const timer = setTimeout(() => dismissInfoMessage(id), MESSAGE_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [id, isHeld]);
  if (!message) return null;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the pointer on the message holds its timer, as in MUI's Snackbar
    <div className="so-snackbar" onMouseEnter={() => setHeld(true)} onMouseLeave={() => setHeld(false)}>
      <Alert
        testId="info-message"
        severity={SEVERITY[message.level]}
        filled
        action={
          <>
            {message.link ? (
              <Link className="so-button so-button--text" to={message.link}>
                {t("common.open")}
              </Link>
            ) : null}
            <button
              type="button"
              className="so-icon-button"
              aria-label={t("common.close")}
              title={t("common.close")}
              onClick={() => dismissInfoMessage(message.id)}
            >
              <Icon name="close" small />
            </button>
          </>
        }
      >
        {message.text}
      </Alert>
    </div>
  );
}
