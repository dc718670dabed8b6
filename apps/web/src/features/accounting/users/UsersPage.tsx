import { type AccountingUser, roleColor } from "@cellfleet/contract";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate } from "react-router";
import { useOffers } from "../../../app/session/useOffers";
import { AccountingList, type ListColumn, stopRowClick } from "../../../components/AccountingList";
import { useListState } from "../../../components/list-card";
import { PageTitle } from "../../../components/PageTitle";
import { isJuniorAssistant, roleText } from "../../../components/roleText";
import { usePersonColumns } from "../shared/personColumns";
import { userListQueryOptions } from "./users.queries";

/** The title of the users list is the list of roles it holds (spec section 2). */
function useRolesTitle(): string {
  const { t } = useTranslation();
  return [t("roles.root"), t("roles.admin"), t("roles.offer"), t("roles.operator")].join(", ");
}

/** /users: the users the caller may see; a row opens the user, the policy cell the policy. */
export function UsersPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const offers = useOffers();
  const [state, update] = useListState("accounting.users");
  const query = useQuery({ ...userListQueryOptions(state.search), select: (answer) => answer.items });
  const title = useRolesTitle();
  const showPolicy = offers("users.seePolicy");

  const person = usePersonColumns<AccountingUser>();
  const roleColumn: ListColumn<AccountingUser> = {
    key: "role",
    label: t("accounting.fields.role"),
    render: (user) => (
      <Chip
        size="small"
        color={roleColor(user.role)}
        variant={isJuniorAssistant(user) ? "outlined" : "filled"}
        data-testid="user-role"
        label={roleText(t, user)}
      />
    ),
  };
  const policyColumn: ListColumn<AccountingUser> = {
    key: "policy",
    label: t("accounting.fields.policy"),
    render: (user) =>
      user.policy ? (
        <Link component={RouterLink} to={`/policy/${user.policy._id}`} onClick={stopRowClick}>
          {user.policy.name}
        </Link>
      ) : (
        t("accounting.policies.default")
      ),
    isWideOnly: true,
  };
  const columns: ListColumn<AccountingUser>[] = [
    person.username,
    person.fullName,
    roleColumn,
    person.email,
    ...(showPolicy ? [policyColumn] : []),
    person.lastLogin,
    person.blocked,
  ];

  return (
    <>
      <PageTitle>{t("routes.users")}</PageTitle>
      <AccountingList
        prefix="accounting.users"
        title={title}
        state={state}
        onStateChange={update}
        query={query}
        columns={columns}
        rowKey={(user) => user._id}
        onRowClick={(user) => navigate(`/user/${user._id}`)}
        onAdd={offers("users.create") ? () => navigate("/user/new") : undefined}
        emptyText={t("accounting.users.empty")}
        testId="users-table"
        csvExport={{ section: "users", body: state.search ? { search: state.search } : {} }}
      />
    </>
  );
}
