import type { User } from "@cellfleet/contract";
import Chip from "@mui/material/Chip";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { useListState } from "../../../components/list-card";
import { PageTitle } from "../../../components/PageTitle";
import { AccountingList, type ListColumn } from "../shared/AccountingList";
import { formatDateTime } from "../shared/formatDate";
import { superuserListQueryOptions } from "./superusers.queries";

/** /superusers: every superuser; a row opens it, Add creates one. */
export function SuperusersPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [state, update] = useListState("accounting.superusers");
  const query = useQuery(superuserListQueryOptions(state.search));

  const columns: ListColumn<User>[] = [
    { key: "username", label: t("accounting.fields.username"), render: (user) => user.username },
    { key: "full_name", label: t("accounting.fields.fullName"), render: (user) => user.full_name },
    { key: "email", label: t("accounting.fields.email"), render: (user) => user.email ?? "—" },
    {
      key: "last_login",
      label: t("accounting.fields.lastLogin"),
      render: (user) => formatDateTime(user.last_login),
    },
    {
      key: "blocked",
      label: t("accounting.fields.blocked"),
      render: (user) =>
        user.blocked ? (
          <Chip size="small" color="error" label={t("accounting.yes")} />
        ) : (
          <Chip size="small" variant="outlined" label={t("accounting.no")} />
        ),
    },
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
