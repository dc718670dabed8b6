import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { useOffers } from "../../../app/session/useOffers";
import { PageTitle } from "../../../components/PageTitle";
import { QueryState } from "../../../components/QueryState";
import { PolicyForm } from "./PolicyForm";
import { policyQueryOptions } from "./policies.queries";

/** /policy/{policy_id} ('new' for a new one, superusers only): every field of a security policy. */
export function PolicyPage() {
  const { t } = useTranslation();
  const { policy_id: id = "new" } = useParams();
  const offers = useOffers();
  const isNew = id === "new";
  const query = useQuery({ ...policyQueryOptions(id), enabled: !isNew });

  if (isNew) {
    return (
      <>
        <PageTitle>{t("accounting.policies.newTitle")}</PageTitle>
        <PolicyForm policy={null} isReadOnly={!offers("policies.create")} />
      </>
    );
  }
  return (
    <QueryState query={query}>
      {(policy) => (
        <>
          <PageTitle>{policy.name}</PageTitle>
          <PolicyForm key={policy._id} policy={policy} isReadOnly={!offers("policies.edit", policy)} />
        </>
      )}
    </QueryState>
  );
}
