import type { SoftwareRule } from "@cellfleet/contract";
import SyncIcon from "@mui/icons-material/Sync";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { useRealtimeLive } from "../../app/realtime/useRealtime";
import { DeleteButton } from "../../components/DeleteButton/DeleteButton";
import { formatDateTime } from "../../components/formatDate";
import { PageTitle } from "../../components/PageTitle";
import { QueryState } from "../../components/QueryState";
import { useFormatFileSize } from "../files/fileLists";
import { RolloutCard } from "./RolloutCard";
import { RolloutDryRunCard } from "./RolloutDryRunCard";
import { SoftwareRuleForm } from "./SoftwareRuleForm";
import { SoftwareStatusChip } from "./SoftwareStatusChip";
import { useLiveSoftware } from "./software.live";
import {
  downloadSoftwareFile,
  softwareRuleQueryOptions,
  useDeleteSoftwareRule,
  useSyncSoftwareRule,
} from "./software.queries";

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack direction={{ xs: "column", sm: "row" }} spacing={{ xs: 0, sm: 2 }}>
      <Typography color="text.secondary" sx={{ minWidth: 160 }}>
        {label}
      </Typography>
      <Typography component="div" sx={{ overflowWrap: "anywhere" }}>
        {children}
      </Typography>
    </Stack>
  );
}

/** What the server fetched: status (and why it failed), file, size, SHA-256, sync time; sync and delete. */
function FetchCard({ rule }: { rule: SoftwareRule }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const formatSize = useFormatFileSize();
  const sync = useSyncSoftwareRule(rule._id);
  const remove = useDeleteSoftwareRule(rule._id);
  return (
    <Card variant="outlined">
      <CardContent>
        <Stack spacing={1.5}>
          <Typography variant="h6" component="h2">
            {t("software.fetch.title")}
          </Typography>
          <Fact label={t("software.fields.status")}>
            <SoftwareStatusChip rule={rule} />
          </Fact>
          {rule.error ? <Fact label={t("software.fetch.error")}>{rule.error}</Fact> : null}
          <Fact label={t("software.fields.series")}>{rule.series ?? t("software.noSeries")}</Fact>
          <Fact label={t("software.fields.file")}>
            {rule.file ? (
              <Link component="button" type="button" onClick={() => void downloadSoftwareFile(rule)}>
                {rule.file.filename}
              </Link>
            ) : (
              t("software.fetch.noFile")
            )}
          </Fact>
          {rule.file ? (
            <>
              <Fact label={t("software.fetch.size")}>{formatSize(rule.file.size)}</Fact>
              <Fact label="SHA-256">
                <code data-testid="software-sha256">{rule.file.sha256}</code>
              </Fact>
            </>
          ) : null}
          <Fact label={t("software.fields.syncTime")}>{formatDateTime(rule.sync_time)}</Fact>
          <Stack direction="row" spacing={1} sx={{ justifyContent: "flex-end", alignItems: "center" }}>
            <DeleteButton
              hasText
              label={t("software.fetch.delete")}
              onDelete={() => remove.mutate(undefined, { onSuccess: () => navigate("/software") })}
            />
            <Button startIcon={<SyncIcon />} onClick={() => sync.mutate()} loading={sync.isPending}>
              {t("software.fetch.sync")}
            </Button>
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  );
}

/** /software/{software_id}: the rule's fields, what the server fetched, sync and delete. */
export function SoftwareRulePage() {
  const { software_id: id = "" } = useParams();
  // The fetch status and the rollout card's progress change live from the socket.
  useLiveSoftware();
  const query = useQuery(softwareRuleQueryOptions(id, useRealtimeLive()));
  return (
    <QueryState query={query}>
      {(rule) => (
        <Stack spacing={3}>
          <PageTitle>{rule.name}</PageTitle>
          <SoftwareRuleForm key={rule._id} rule={rule} />
          <FetchCard rule={rule} />
          <RolloutDryRunCard rule={rule} />
          <RolloutCard rule={rule} />
        </Stack>
      )}
    </QueryState>
  );
}

/** /software/new: a new rule; its page opens once created, where the fetch is followed. */
export function SoftwareNewPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle>{t("routes.softwareNew")}</PageTitle>
      <SoftwareRuleForm rule={null} />
    </>
  );
}
