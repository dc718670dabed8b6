import type { User } from "@cellfleet/contract";
import Chip from "@mui/material/Chip";
import { useTranslation } from "react-i18next";
import type { ListColumn } from "../../../components/AccountingList";
import { formatDateTime } from "../../../components/formatDate";

/** What the columns of a list of people read from a row. */
type Person = Pick<User, "username" | "full_name" | "email" | "last_login" | "blocked">;

/** Whether a person is blocked, as a red "yes" or an outlined "no". */
export function BlockedChip({ isBlocked }: { isBlocked: boolean }) {
  const { t } = useTranslation();
  return isBlocked ? (
    <Chip size="small" color="error" label={t("accounting.yes")} />
  ) : (
    <Chip size="small" variant="outlined" label={t("accounting.no")} />
  );
}

/** The columns every list of people (users, superusers) shows, for a page to arrange with its own. */
export function usePersonColumns<T extends Person>() {
  const { t } = useTranslation();
  return {
    username: {
      key: "username",
      label: t("accounting.fields.username"),
      render: (person) => person.username,
    },
    fullName: {
      key: "full_name",
      label: t("accounting.fields.fullName"),
      render: (person) => person.full_name,
      isWideOnly: true,
    },
    email: {
      key: "email",
      label: t("accounting.fields.email"),
      render: (person) => person.email ?? "—",
      isWideOnly: true,
    },
    lastLogin: {
      key: "last_login",
      label: t("accounting.fields.lastLogin"),
      render: (person) => formatDateTime(person.last_login),
      isWideOnly: true,
    },
    blocked: {
      key: "blocked",
      label: t("accounting.fields.blocked"),
      render: (person) => <BlockedChip isBlocked={person.blocked} />,
      isWideOnly: true,
    },
  } satisfies Record<string, ListColumn<T>>;
}
