import { type SoftwareRule, softwareRuleMatches } from "@cellfleet/contract";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import { useQuery } from "@tanstack/react-query";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate } from "react-router";
import { useRealtimeLive } from "../../app/realtime/useRealtime";
import { AccountingList, type ListColumn } from "../../components/AccountingList";
import { formatDateTime } from "../../components/formatDate";
import { useListState } from "../../components/list-card";
import { PageTitle } from "../../components/PageTitle";
import { SoftwareStatusChip, softwareStatusText } from "./SoftwareStatusChip";
import { useLiveSoftware } from "./software.live";
import { downloadSoftwareFile, softwareListQueryOptions } from "./software.queries";

/** /software (root): the software rules; the search covers name, url, series, sync time, status and models. */
export function SoftwarePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [state, update] = useListState("software.list");
  const search = state.search;
  const select = useCallback(
    (rules: SoftwareRule[]) =>
      rules.filter((rule) =>
        softwareRuleMatches(rule, search, {
          status: softwareStatusText(t, rule.status),
          syncTime: formatDateTime(rule.sync_time),
        }),
      ),
    [search, t],
  );
  // Fetch statuses change live from the socket; a slow poll only while it is down.
  useLiveSoftware();
  const query = useQuery({ ...softwareListQueryOptions(useRealtimeLive()), select });

  const columns: ListColumn<SoftwareRule>[] = [
    {
      key: "name",
      label: t("software.fields.name"),
      render: (rule) => (
        <Link component={RouterLink} to={`/software/${rule._id}`}>
          {rule.name}
        </Link>
      ),
    },
    {
      key: "status",
      label: t("software.fields.status"),
      render: (rule) => <SoftwareStatusChip rule={rule} />,
    },
    {
      key: "file",
      label: t("software.fields.file"),
      render: (rule) =>
        rule.file ? (
          <Link component="button" type="button" onClick={() => void downloadSoftwareFile(rule)}>
            {rule.file.filename}
          </Link>
        ) : (
          "—"
        ),
      isWideOnly: true,
    },
    {
      key: "series",
      label: t("software.fields.series"),
      render: (rule) => rule.series ?? t("software.noSeries"),
      isWideOnly: true,
    },
    {
      key: "models",
      label: t("software.fields.models"),
      render: (rule) => (
        <Stack direction="row" sx={{ flexWrap: "wrap", gap: 0.5 }}>
          {rule.models.map((model) => (
            <Chip key={model} size="small" label={model} />
          ))}
        </Stack>
      ),
      isWideOnly: true,
    },
    {
      key: "update",
      label: t("software.fields.lastUpdate"),
      render: (rule) => formatDateTime(rule.update_time),
      isWideOnly: true,
    },
  ];

  return (
    <>
      <PageTitle>{t("routes.software")}</PageTitle>
      <AccountingList
        prefix="software.list"
        title={t("software.list.title")}
        state={state}
        onStateChange={update}
        query={query}
        columns={columns}
        rowKey={(rule) => rule._id}
        onAdd={() => navigate("/software/new")}
        csvExport={{ section: "firmwares" }}
        emptyText={t("software.list.empty")}
        testId="software-table"
      />
    </>
  );
}
