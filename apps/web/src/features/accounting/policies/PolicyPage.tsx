import type { PolicyDetail } from "@cellfleet/contract";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { useSession } from "../../../app/session/useSession";
import { PageTitle } from "../../../components/PageTitle";
import { QueryState } from "../../../components/QueryState";
import { PolicyForm } from "./PolicyForm";
import { policyQueryOptions } from "./policies.queries";

/** /policy/{policy_id} ('new' for a new one, superusers only): every field of a security policy. */
export function PolicyPage() {
  const { t } = useTranslation();
  const { policy_id: id = "new" } = useParams();
  const session = useSession();
  const isNew = id === "new";
  const query = useQuery({ ...policyQueryOptions(id), enabled: !isNew });

  // Superusers change any policy; admins only their own domain's (a global one is read-only to them).
  const canEdit = (policy: PolicyDetail | null) =>
    session?.role === 1 || (session?.role === 2 && policy !== null && policy.domain_id !== null);

  if (isNew) {
    return (
      <>
        <PageTitle>{t("accounting.policies.newTitle")}</PageTitle>
        <PolicyForm policy={null} isReadOnly={session?.role !== 1} />
      </>
    );
  }
  return (
    <QueryState query={query}>
      {(policy) => (
        <>
          <PageTitle>{policy.name}</PageTitle>
          <PolicyForm key={policy._id} policy={policy} isReadOnly={!canEdit(policy)} />
        </>
      )}
    </QueryState>
  );
}
