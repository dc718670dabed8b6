import type { User } from "@cellfleet/contract";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { AccountingList, type ListColumn } from "../../../components/AccountingList";
import { useListState } from "../../../components/list-card";
import { PageTitle } from "../../../components/PageTitle";
import { usePersonColumns } from "../shared/personColumns";
import { superuserListQueryOptions } from "./superusers.queries";

/** /superusers: every superuser; a row opens it, Add creates one. */
export function SuperusersPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [state, update] = useListState("accounting.superusers");
  const query = useQuery(superuserListQueryOptions(state.search));

  const person = usePersonColumns<User>();
  const columns: ListColumn<User>[] = [
    person.username,
    person.fullName,
    person.email,
    person.lastLogin,
    person.blocked,
  ];

  return (
    <>
      <PageTitle>{t("routes.superusers")}</PageTitle>
      <AccountingList
        prefix="accounting.superusers"
        title={t("routes.superusers")}
        state={state}
        onStateChange={update}
        query={query}
        columns={columns}
        rowKey={(user) => user._id}
        onRowClick={(user) => navigate(`/superuser/${user._id}`)}
        onAdd={() => navigate("/superuser/new")}
        emptyText={t("accounting.superusers.empty")}
        testId="superusers-table"
      />
    </>
  );
}
