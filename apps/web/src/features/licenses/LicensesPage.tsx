import type { License } from "@cellfleet/contract";
import SyncIcon from "@mui/icons-material/Sync";
import Button from "@mui/material/Button";
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { pushInfoMessage } from "../../app/messages/messageStore";
import { useOffers } from "../../app/session/useOffers";
import { ListCard } from "../../components/list-card";
import { PageTitle } from "../../components/PageTitle";
import { QueryState } from "../../components/QueryState";
import { FingerprintButton } from "./components/FingerprintButton";
import { LicensesTable } from "./components/LicensesTable";
import { LicenseUsage } from "./components/LicenseUsage";
import { UploadLicenseButton } from "./components/UploadLicenseButton";
import { freshFailures, licensesQueryOptions, useRefreshLicenses } from "./licenses.queries";

/** Failures already announced in this tab (a licence id with its attempt's time). */
const announced = new Set<string>();

/**
 * Spec §8: a licence update that fails shows a critical message from its error code. The list polls
 * while activations run; an attempt that just failed is announced once, however the page learnt it.
 */
function useAnnounceFailures(items: readonly License[] | undefined) {
  const { t } = useTranslation();
  useEffect(() => {
    if (!items) return;
    for (const license of freshFailures(items, Date.now(), announced)) {
      pushInfoMessage({
        level: "critical",
        text: `${license.license_id}: ${t(`licenses.errors.${license.error}`)}`,
      });
    }
  }, [items, t]);
}

/** /licenses (root): the licences, the routers they allow, Refresh, Digital print and licence files. */
export function LicensesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const offers = useOffers();
  const query = useQuery(licensesQueryOptions());
  const refresh = useRefreshLicenses();
  const mayManage = offers("licenses.manage");
  useAnnounceFailures(query.data?.items);

  return (
    <>
      <PageTitle>{t("routes.licenses")}</PageTitle>
      <ListCard
        title={t("routes.licenses")}
        subtitle={query.data ? <LicenseUsage usage={query.data.usage} /> : undefined}
        onReload={() => void query.refetch()}
        csvExport={{ section: "licenses" }}
        onAdd={mayManage ? () => navigate("/license/new") : undefined}
        filters={
          <>
            {mayManage ? (
              <Button
                startIcon={<SyncIcon />}
                onClick={() => refresh.mutate(undefined)}
                loading={refresh.isPending}
                disabled={!query.data?.items.length}
                data-testid="licenses-refresh"
              >
                {t("licenses.refresh")}
              </Button>
            ) : null}
            <FingerprintButton />
            {mayManage ? <UploadLicenseButton /> : null}
          </>
        }
      >
        <QueryState
          query={query}
          isEmpty={(answer) => answer.items.length === 0}
          emptyText={t("licenses.empty")}
          isInset
        >
          {(answer) => (
            <LicensesTable
              licenses={answer.items}
              onRefresh={mayManage ? (license) => refresh.mutate(license._id) : undefined}
            />
          )}
        </QueryState>
      </ListCard>
    </>
  );
}
