import type { PolicyListItem } from "@cellfleet/contract";
import Chip from "@mui/material/Chip";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { useOffers } from "../../../app/session/useOffers";
import { AccountingList, type ListColumn } from "../../../components/AccountingList";
import { useListState } from "../../../components/list-card";
import { PageTitle } from "../../../components/PageTitle";
import { policyListQueryOptions } from "./policies.queries";

const LEVEL_COLORS = { 0: "default", 1: "info", 2: "warning" } as const;

/** /policies: name and protection level (the default policy is never listed); Add for superusers only. */
export function PoliciesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const offers = useOffers();
  const [state, update] = useListState("accounting.policies");
  const query = useQuery(policyListQueryOptions(state.search));

  const columns: ListColumn<PolicyListItem>[] = [
    { key: "name", label: t("accounting.fields.name"), render: (policy) => policy.name },
    {
      key: "level",
      label: t("accounting.policies.level"),
      render: (policy) => (
        <Chip
          size="small"
          color={LEVEL_COLORS[policy.policy_level]}
          label={t(`accounting.policies.levels.${policy.policy_level}`)}
        />
      ),
    },
  ];

  return (
    <>
      <PageTitle>{t("routes.policies")}</PageTitle>
      <AccountingList
        prefix="accounting.policies"
        title={t("routes.policies")}
        state={state}
        onStateChange={update}
        query={query}
        columns={columns}
        rowKey={(policy) => policy._id}
        onRowClick={(policy) => navigate(`/policy/${policy._id}`)}
        onAdd={offers("policies.create") ? () => navigate("/policy/new") : undefined}
        emptyText={
          offers("policies.view") ? t("accounting.policies.empty") : t("accounting.policies.noPlugin")
        }
        testId="policies-table"
      />
    </>
  );
}
