import type { ApiToken } from "@cellfleet/contract";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useOffers } from "../../../app/session/useOffers";
import { ConfirmDialog } from "../../../components/ConfirmDialog";
import { QueryState } from "../../../components/QueryState";
import {
  domainTokensQueryOptions,
  ownTokensQueryOptions,
  tokenOptionsQueryOptions,
  useRevokeToken,
} from "./apiTokens.queries";
import { CreateTokenDialog } from "./CreateTokenDialog";
import { TokenItem } from "./TokenItem";

/** Asks before revoking, then revokes; `isDomain` uses the admin's route. */
function useRevokeWithConfirm(isDomain: boolean) {
  const { t } = useTranslation();
  const revoke = useRevokeToken();
  const [target, setTarget] = useState<ApiToken | null>(null);
  const dialog = (
    <ConfirmDialog
      question={
        target
          ? {
              title: t("apiTokens.revokeTitle", { name: target.name }),
              text: t("apiTokens.revokeText"),
              confirm: t("apiTokens.revoke"),
              isDangerous: true,
            }
          : null
      }
      isBusy={revoke.isPending}
      onClose={() => setTarget(null)}
      onConfirm={() => {
        if (target) revoke.mutate({ id: target._id, isDomain }, { onSettled: () => setTarget(null) });
      }}
    />
  );
  return { ask: setTarget, dialog };
}

/** The profile page's own API tokens: list, New token, Revoke (ADR 040). */
export function ApiTokensSection() {
  const { t } = useTranslation();
  const tokens = useQuery(ownTokensQueryOptions());
  const options = useQuery(tokenOptionsQueryOptions());
  const [isCreating, setCreating] = useState(false);
  const { ask, dialog } = useRevokeWithConfirm(false);
  const now = Date.now();

  return (
    <Card variant="outlined" data-testid="api-tokens">
      <CardContent>
        <Stack direction="row" spacing={2} sx={{ alignItems: "center", mb: 1 }}>
          <Typography variant="h6" component="h2" sx={{ mr: "auto" }}>
            {t("apiTokens.title")}
          </Typography>
          <Button variant="outlined" disabled={!options.data} onClick={() => setCreating(true)}>
            {t("apiTokens.new")}
          </Button>
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t("apiTokens.intro")}
        </Typography>
        <QueryState
          query={tokens}
          isEmpty={(items) => items.length === 0}
          emptyText={t("apiTokens.empty")}
          isInset
        >
          {(items) => (
            <Stack>
              {items.map((token) => (
                <TokenItem key={token._id} token={token} now={now} onRevoke={ask} />
              ))}
            </Stack>
          )}
        </QueryState>
      </CardContent>
      {options.data && isCreating ? (
        <CreateTokenDialog isOpen offered={options.data.permissions} onClose={() => setCreating(false)} />
      ) : null}
      {dialog}
    </Card>
  );
}

/** An admin's view of every token of the domain's people, each revocable. */
export function DomainTokensSection() {
  const { t } = useTranslation();
  const offers = useOffers();
  const isAllowed = offers("apiTokens.viewDomain");
  const tokens = useQuery({ ...domainTokensQueryOptions(), enabled: isAllowed });
  const { ask, dialog } = useRevokeWithConfirm(true);
  if (!isAllowed) return null;
  const now = Date.now();
  return (
    <Card variant="outlined" data-testid="domain-api-tokens">
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          {t("apiTokens.domainTitle")}
        </Typography>
        <QueryState
          query={tokens}
          isEmpty={(items) => items.length === 0}
          emptyText={t("apiTokens.domainEmpty")}
          isInset
        >
          {(items) => (
            <Stack>
              {items.map((token) => (
                <TokenItem key={token._id} token={token} now={now} isOwnerShown onRevoke={ask} />
              ))}
            </Stack>
          )}
        </QueryState>
      </CardContent>
      {dialog}
    </Card>
  );
}
