import type { Device, DeviceConnectInfo } from "@cellfleet/contract";
import ExpandMoreIcon from "@mui/icons-material/ExpandMore";
import VpnKeyIcon from "@mui/icons-material/VpnKey";
import Accordion from "@mui/material/Accordion";
import AccordionDetails from "@mui/material/AccordionDetails";
import AccordionSummary from "@mui/material/AccordionSummary";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useOffers } from "../../../app/session/useOffers";
import { CopyButton } from "../../../components/CopyButton";
import { QueryState } from "../../../components/QueryState";
import { connectInfoQueryOptions } from "../insight.queries";
import { InstallAgentBlock } from "./InstallAgentBlock";
import { NewKeyButton } from "./NewKeyButton";
import { RefusalNotice } from "./RefusalNotice";
import { BrokerList, SnippetBlock } from "./SnippetBlock";

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Stack direction="row" sx={{ alignItems: "center", gap: 0.5, flexWrap: "wrap" }}>
        {children}
      </Stack>
    </Box>
  );
}

const mono = { fontFamily: "monospace", wordBreak: "break-all" } as const;

function ConnectDetails({
  info,
  device,
  freshKey,
  onNewKey,
}: {
  info: DeviceConnectInfo;
  device: Device;
  freshKey: string | null;
  onNewKey: (key: string) => void;
}) {
  const { t } = useTranslation();
  const offers = useOffers();
  return (
    <Stack spacing={2}>
      <Box
        sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", md: "repeat(3, minmax(0, 1fr))" }, gap: 2 }}
      >
        <Field label={t("insight.connect.broker")}>
          <BrokerList brokers={info.brokers} />
        </Field>
        <Field label={t("insight.connect.ident")}>
          <Typography variant="body2" sx={mono}>
            {info.ident}
          </Typography>
          <CopyButton text={info.ident} label={t("insight.connect.copy")} />
        </Field>
        <Field label={t("fleet.device.key")}>
          <Typography variant="body2" data-testid="key-state">
            {info.has_key ? t("insight.connect.keySet") : t("insight.connect.keyNotSet")}
          </Typography>
          {offers("devices.edit") ? (
            <NewKeyButton deviceId={device._id} hasKey={info.has_key} onKey={onNewKey} />
          ) : null}
        </Field>
      </Box>
      {info.is_embedded_broker ? (
        <Typography variant="body2" color="text.secondary" data-testid="broker-port-kept">
          {t("insight.connect.portKept")}
        </Typography>
      ) : null}
      {freshKey ? (
        <Alert severity="warning" icon={<VpnKeyIcon />} data-testid="fresh-key">
          <Typography variant="body2">{t("insight.connect.keyOnce")}</Typography>
          <Stack direction="row" sx={{ alignItems: "center", gap: 0.5 }}>
            <Typography variant="body2" sx={{ ...mono, fontWeight: 600 }} data-testid="fresh-key-value">
              {freshKey}
            </Typography>
            <CopyButton text={freshKey} label={t("insight.connect.copyKey")} testId="copy-key" />
          </Stack>
        </Alert>
      ) : null}
      <InstallAgentBlock deviceId={device._id} />
      <SnippetBlock ident={info.ident} brokers={info.brokers} freshKey={freshKey} />
    </Stack>
  );
}

/**
 * What a router needs to connect (issue 18): the broker's public address, its ident, a key made
 * here and shown once, a snippet to paste, and why the gateway refused it last. Open for a router
 * that never connected or was refused since; folded away for one that reports.
 */
export function ConnectCard({ device, initialKey }: { device: Device; initialKey: string | null }) {
  const { t } = useTranslation();
  const info = useQuery(connectInfoQueryOptions(device._id));
  const [freshKey, setFreshKey] = useState<string | null>(initialKey);
  const refusal = info.data?.last_refusal ?? null;
  const isRefusedSince = refusal !== null && (device.time === null || refusal.time > device.time);
  const isPending = device.time === null;
  const [isOpen, setIsOpen] = useState(isPending || freshKey !== null);
  useEffect(() => {
    if (isRefusedSince) setIsOpen(true);
  }, [isRefusedSince]);
  return (
    <Accordion
      expanded={isOpen}
      onChange={(_event, expanded) => setIsOpen(expanded)}
      variant="outlined"
      disableGutters
      data-testid="connect-card"
      sx={{ borderRadius: 1, "&::before": { display: "none" } }}
    >
      <AccordionSummary expandIcon={<ExpandMoreIcon />}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {t("insight.connect.title")}
        </Typography>
      </AccordionSummary>
      <AccordionDetails>
        <Stack spacing={2}>
          {isPending ? (
            <Alert severity="info" data-testid="waiting-first-contact">
              {t("insight.connect.waiting")}
            </Alert>
          ) : null}
          {refusal ? <RefusalNotice refusal={refusal} isSinceContact={isRefusedSince} /> : null}
          <QueryState query={info} isInset>
            {(data) => (
              <ConnectDetails info={data} device={device} freshKey={freshKey} onNewKey={setFreshKey} />
            )}
          </QueryState>
        </Stack>
      </AccordionDetails>
    </Accordion>
  );
}
