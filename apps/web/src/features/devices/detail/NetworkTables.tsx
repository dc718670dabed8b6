import {
  type EthernetPortReport,
  type InterfaceReport,
  linkStateLabelKey,
  type RouteReport,
  serviceStateLabelKey,
  type TunnelReport,
  tunnelStateLabelKey,
} from "@cellfleet/contract";
import Chip from "@mui/material/Chip";
import { useTranslation } from "react-i18next";
import { formatBytes, orDash } from "../../../components/format";
import { SimpleTable } from "./SimpleTable";

function UpDown({ isUp, label }: { isUp: boolean; label: string }) {
  return <Chip size="small" color={isUp ? "success" : "default"} label={label} />;
}

/** WAN or other interfaces: name, state, address, MAC, Rx/Tx. */
export function InterfacesTable({ interfaces, testId }: { interfaces: InterfaceReport[]; testId: string }) {
  const { t } = useTranslation();
  return (
    <SimpleTable
      testId={testId}
      headers={[
        t("fleet.net.name"),
        t("fleet.net.kind"),
        t("fleet.net.state"),
        "IPv4",
        "MAC",
        t("fleet.net.rxTx"),
      ]}
      rows={interfaces}
      rowKey={(row) => row.name}
      emptyText={t("fleet.net.none")}
      cells={(row) => [
        row.name,
        t(`fleet.net.kinds.${row.kind}`),
        <UpDown
          key="state"
          isUp={row.state === "up"}
          label={t(`fleet.link.${linkStateLabelKey(row.state === "up")}`)}
        />,
        orDash(row.ipv4),
        orDash(row.mac),
        `${formatBytes(row.rx)} / ${formatBytes(row.tx)}`,
      ]}
    />
  );
}

/** Ethernet ports: link up/down, speed and duplex. */
export function EthernetsTable({ ports }: { ports: EthernetPortReport[] }) {
  const { t } = useTranslation();
  return (
    <SimpleTable
      testId="ethernets-table"
      headers={[t("fleet.net.port"), t("fleet.net.link"), t("fleet.net.speed"), t("fleet.net.duplex")]}
      rows={ports}
      rowKey={(row) => row.name}
      emptyText={t("fleet.net.none")}
      cells={(row) => [
        row.name,
        <UpDown
          key="link"
          isUp={row.link === "up"}
          label={t(`fleet.link.${linkStateLabelKey(row.link === "up")}`)}
        />,
        row.speed === null ? "—" : `${row.speed} Mbit/s`,
        row.duplex ? t(`fleet.net.duplexes.${row.duplex}`) : "—",
      ]}
    />
  );
}

/** Tunnels: Up/Down, the service Running/Stop, endpoints and counters. */
export function TunnelsTable({ tunnels }: { tunnels: TunnelReport[] }) {
  const { t } = useTranslation();
  return (
    <SimpleTable
      testId="tunnels-table"
      headers={[
        t("fleet.net.name"),
        t("fleet.net.kind"),
        t("fleet.net.state"),
        t("fleet.net.service"),
        t("fleet.net.local"),
        t("fleet.net.remote"),
        t("fleet.net.rxTx"),
      ]}
      rows={tunnels}
      rowKey={(row) => row.name}
      emptyText={t("fleet.net.none")}
      cells={(row) => [
        row.name,
        row.kind,
        <UpDown
          key="state"
          isUp={row.state === "up"}
          label={t(`fleet.tunnel.${tunnelStateLabelKey(row.state === "up")}`)}
        />,
        <UpDown
          key="service"
          isUp={row.service === "running"}
          label={t(`fleet.service.${serviceStateLabelKey(row.service === "running")}`)}
        />,
        orDash(row.local),
        orDash(row.remote),
        `${formatBytes(row.rx)} / ${formatBytes(row.tx)}`,
      ]}
    />
  );
}

/** The routing table; the default route is marked. */
export function RoutesTable({ routes }: { routes: RouteReport[] }) {
  const { t } = useTranslation();
  return (
    <SimpleTable
      testId="routes-table"
      headers={[
        t("fleet.net.destination"),
        t("fleet.net.gateway"),
        t("fleet.net.interface"),
        t("fleet.net.metric"),
        "",
      ]}
      rows={routes}
      rowKey={(row, index) => `${row.destination}-${row.interface}-${index}`}
      emptyText={t("fleet.net.none")}
      cells={(row) => [
        row.destination,
        orDash(row.gateway),
        row.interface,
        row.metric,
        row.is_default ? (
          <Chip key="default" size="small" color="primary" label={t("fleet.net.default")} />
        ) : (
          ""
        ),
      ]}
    />
  );
}
