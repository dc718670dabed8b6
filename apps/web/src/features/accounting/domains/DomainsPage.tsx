import type { DomainListItem } from "@cellfleet/contract";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Tooltip from "@mui/material/Tooltip";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate } from "react-router";
import { AccountingList, type ListColumn } from "../../../components/AccountingList";
import { formatDateTime } from "../../../components/formatDate";
import { useListState } from "../../../components/list-card";
import { PageTitle } from "../../../components/PageTitle";
import { domainListQueryOptions } from "./domains.queries";

function DeviceCounts({ devices }: { devices: DomainListItem["devices"] }) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={0.5}>
      <Tooltip title={t("accounting.domains.online")}>
        <Chip size="small" color="success" label={devices.online} />
      </Tooltip>
      <Tooltip title={t("accounting.domains.warning")}>
        <Chip size="small" color="warning" label={devices.warning} />
      </Tooltip>
      <Tooltip title={t("accounting.domains.critical")}>
        <Chip size="small" color="error" label={devices.critical} />
      </Tooltip>
    </Stack>
  );
}

/** /domains (superuser): every domain, searched over email, full name, manager, name and TIN. */
export function DomainsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [state, update] = useListState("accounting.domains");
  const query = useQuery(domainListQueryOptions(state.search));

  const columns: ListColumn<DomainListItem>[] = [
    {
      key: "name",
      label: t("accounting.fields.name"),
      render: (domain) => (
        <Link component={RouterLink} to={`/domain/${domain._id}`}>
          {domain.name}
        </Link>
      ),
    },
    {
      key: "full_name",
      label: t("accounting.fields.fullName"),
      render: (domain) => domain.full_name,
      isWideOnly: true,
    },
    { key: "tin", label: t("accounting.fields.tin"), render: (domain) => domain.tin, isWideOnly: true },
    {
      key: "email",
      label: t("accounting.fields.email"),
      render: (domain) => domain.email ?? "—",
      isWideOnly: true,
    },
    {
      key: "manager",
      label: t("accounting.fields.manager"),
      render: (domain) => domain.manager ?? "—",
      isWideOnly: true,
    },
    {
      key: "last_session",
      label: t("accounting.domains.lastSession"),
      render: (domain) => formatDateTime(domain.last_session),
      isWideOnly: true,
    },
    {
      key: "devices",
      label: t("accounting.domains.devices"),
      render: (domain) => <DeviceCounts devices={domain.devices} />,
    },
  ];

  return (
    <>
      <PageTitle>{t("routes.domains")}</PageTitle>
      <AccountingList
        prefix="accounting.domains"
        title={t("routes.domains")}
        state={state}
        onStateChange={update}
        query={query}
        columns={columns}
        rowKey={(domain) => domain._id}
        onAdd={() => navigate("/domains/new")}
        emptyText={t("accounting.domains.empty")}
        testId="domains-table"
        csvExport={{ section: "domains", body: state.search ? { search: state.search } : {} }}
      />
    </>
  );
}
