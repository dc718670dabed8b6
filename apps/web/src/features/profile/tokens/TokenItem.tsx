import type { ApiToken } from "@cellfleet/contract";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../../../components/formatDate";
import { actionWord } from "./actionWords";

/** active, expired or revoked, at `now`. */
export function tokenState(token: ApiToken, now: number): "active" | "expired" | "revoked" {
  if (token.revoked_at !== null) return "revoked";
  return token.expires_at <= now ? "expired" : "active";
}

const STATE_COLOURS = { active: "success", expired: "default", revoked: "default" } as const;

interface TokenItemProps {
  token: ApiToken;
  now: number;
  /** Shows whose token it is (the admin's list of the domain's tokens). */
  isOwnerShown?: boolean;
  onRevoke?: (token: ApiToken) => void;
}

/** One token: name, state, expiry, last use and address, what it carries, and Revoke while it works. */
export function TokenItem({ token, now, isOwnerShown = false, onRevoke }: TokenItemProps) {
  const { t } = useTranslation();
  const state = tokenState(token, now);
  return (
    <Stack
      spacing={0.75}
      sx={{ py: 1.5, borderBottom: 1, borderColor: "divider", "&:last-of-type": { borderBottom: 0 } }}
      data-testid="api-token"
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap", rowGap: 0.5 }}>
        <Typography sx={{ fontWeight: 600, overflowWrap: "anywhere" }}>{token.name}</Typography>
        {isOwnerShown ? (
          <Typography variant="body2" color="text.secondary">
            {token.username}
          </Typography>
        ) : null}
        <Chip size="small" color={STATE_COLOURS[state]} label={t(`apiTokens.state.${state}`)} />
        {onRevoke && state === "active" ? (
          <Button size="small" color="error" sx={{ ml: "auto !important" }} onClick={() => onRevoke(token)}>
            {t("apiTokens.revoke")}
          </Button>
        ) : null}
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {t("apiTokens.expires", { time: formatDateTime(token.expires_at) })}
        {" · "}
        {token.last_used_at === null
          ? t("apiTokens.neverUsed")
          : t("apiTokens.lastUsed", {
              time: formatDateTime(token.last_used_at),
              ip: token.last_used_ip ?? "—",
            })}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: "anywhere" }}>
        {t("apiTokens.carries", { count: token.permissions.length })}
        {": "}
        <Typography component="span" variant="body2" title={token.permissions.join(", ")}>
          {token.permissions.map((action) => actionWord(t, action)).join(", ")}
        </Typography>
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: "anywhere" }}>
        {token.allowed_ips.length === 0
          ? t("apiTokens.anyAddress")
          : t("apiTokens.onlyFrom", { networks: token.allowed_ips.join(", ") })}
      </Typography>
      {token.tag_scope.length > 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: "anywhere" }}>
          {t("apiTokens.onlyTagged", { tags: token.tag_scope.join(", ") })}
        </Typography>
      ) : null}
    </Stack>
  );
}
