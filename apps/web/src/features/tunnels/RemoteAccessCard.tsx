import type { Device, Role, TunnelSession } from "@cellfleet/contract";
import LanguageIcon from "@mui/icons-material/Language";
import TerminalIcon from "@mui/icons-material/Terminal";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import Chip from "@mui/material/Chip";
import Divider from "@mui/material/Divider";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { pushInfoMessage } from "../../app/messages/messageStore";
import { useOffers } from "../../app/session/useOffers";
import { useSession } from "../../app/session/useSession";
import { formatBytes } from "../../components/format";
import { formatDateTime } from "../../components/formatDate";
import {
  tunnelsQueryOptions,
  useDecideTunnel,
  useOpenWebTunnel,
  usePeersLive,
  useRequestTunnel,
} from "./tunnels.queries";

// xterm.js is fetched only when a terminal opens (bench/bundle.ts weighs the device page without it).
const TerminalDialog = lazy(async () => ({ default: (await import("./TerminalDialog")).TerminalDialog }));
const ReplayDialog = lazy(async () => ({ default: (await import("./ReplayDialog")).ReplayDialog }));

const LIVE_STATES = new Set(["waiting", "approved", "open"]);
/** Ended sessions of the router shown under the live ones. */
const ENDED_SHOWN = 3;

const authorOf = (session: TunnelSession) => ({
  _id: session.author_id,
  role: session.author_role as Role,
  is_junior: session.author_is_junior,
});

function SessionRow({
  session,
  onOpen,
  onReplay,
}: {
  session: TunnelSession;
  onOpen: (session: TunnelSession) => void;
  onReplay: (session: TunnelSession) => void;
}) {
  const { t } = useTranslation();
  const offers = useOffers();
  const user = useSession();
  const decide = useDecideTunnel();
  const isLive = LIVE_STATES.has(session.state);
  const act = (decision: "approve" | "refuse" | "end") => decide.mutate({ session, decision });
  return (
    <Stack
      direction="row"
      data-testid="tunnel-session"
      data-state={session.state}
      sx={{ alignItems: "center", gap: 1, flexWrap: "wrap", px: 2, py: 1 }}
    >
      <Chip
        size="small"
        label={t(`remote.state.${session.state}`)}
        color={session.state === "open" ? "success" : "default"}
      />
      <Typography variant="body2" sx={{ flex: "1 1 220px", minWidth: 0 }}>
        {t(`remote.kind.${session.kind}`)} ·{" "}
        {t("remote.line", {
          author: session.author,
          minutes: session.minutes,
          time: formatDateTime(Date.parse(session.create_time)),
        })}
        {session.state === "ended"
          ? ` · ${t(`remote.reason.${session.end_reason ?? "closed"}`)} · ↑ ${formatBytes(session.bytes_up)} ↓ ${formatBytes(session.bytes_down)}`
          : ""}
      </Typography>
      {session.state === "approved" && user?._id === session.author_id ? (
        <Button size="small" variant="contained" onClick={() => onOpen(session)} data-testid="tunnel-open">
          {t("remote.open")}
        </Button>
      ) : null}
      {session.state === "waiting" && offers("tunnels.approve", authorOf(session)) ? (
        <>
          <Button
            size="small"
            variant="contained"
            onClick={() => act("approve")}
            data-testid="tunnel-approve"
          >
            {t("remote.approve", { minutes: session.minutes })}
          </Button>
          <Button size="small" onClick={() => act("refuse")} data-testid="tunnel-refuse">
            {t("remote.refuse")}
          </Button>
        </>
      ) : null}
      {session.has_recording ? (
        <Button size="small" onClick={() => onReplay(session)} data-testid="tunnel-replay">
          {t("remote.replay")}
        </Button>
      ) : null}
      {isLive && offers("tunnels.end", authorOf(session)) ? (
        <Button size="small" color="error" onClick={() => act("end")} data-testid="tunnel-end">
          {t("remote.endNow")}
        </Button>
      ) : null}
    </Stack>
  );
}

/**
 * Remote access on the device page (issue 29, ADR 038): "Terminal" and "Web interface" ask for a
 * session (an admin's opens at once, anybody else's waits for approval), and the router's sessions
 * follow `peers`. The web interface opens in a tab of its own, on the session's own origin.
 */
export function RemoteAccessCard({ device }: { device: Device }) {
  const { t } = useTranslation();
  const offers = useOffers();
  usePeersLive();
  const sessions = useQuery(tunnelsQueryOptions());
  const request = useRequestTunnel();
  const openWeb = useOpenWebTunnel();
  const [open, setOpen] = useState<TunnelSession | null>(null);
  const [replayed, setReplayed] = useState<TunnelSession | null>(null);
  if (!offers("tunnels.view")) return null;
  const mine = (sessions.data ?? []).filter((session) => session.device_id === device._id);
  const live = mine.filter((session) => LIVE_STATES.has(session.state));
  const ended = mine.filter((session) => !LIVE_STATES.has(session.state)).slice(0, ENDED_SHOWN);
  // The tab is opened on the click itself (a browser blocks one opened later), cut from this page
  // (no `opener`), and sent to the session's link once the console answers.
  const openWebTab = (session: TunnelSession, tab: Window | null) =>
    openWeb.mutate(session._id, {
      onSuccess: (answer) => {
        if (answer.state !== "open") {
          tab?.close();
          pushInfoMessage({ level: "warning", text: t("remote.notConnected") });
        } else if (tab) {
          tab.opener = null;
          tab.location.href = answer.url;
        } else window.open(answer.url, "_blank", "noopener");
      },
      onError: () => tab?.close(),
    });
  const handleRequest = (kind: TunnelSession["kind"]) => {
    const tab = kind === "web" ? window.open("", "_blank") : null;
    request.mutate(
      { deviceId: device._id, kind },
      {
        onSuccess: (session) => {
          if (session.state === "approved") return handleOpenWith(session, tab);
          tab?.close();
          pushInfoMessage({ level: "info", text: t("remote.waits") });
        },
        onError: () => tab?.close(),
      },
    );
  };
  const handleOpenWith = (session: TunnelSession, tab: Window | null) =>
    session.kind === "web" ? openWebTab(session, tab) : setOpen(session);
  const handleOpen = (session: TunnelSession) =>
    handleOpenWith(session, session.kind === "web" ? window.open("", "_blank") : null);
  return (
    <Card variant="outlined" data-testid="remote-access">
      <Stack direction="row" sx={{ alignItems: "center", gap: 1, px: 2, py: 1.25, flexWrap: "wrap" }}>
        <TerminalIcon fontSize="small" color="primary" />
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, flex: "1 1 auto" }}>
          {t("remote.title")}
        </Typography>
        {offers("tunnels.open") ? (
          <>
            <Button
              variant="outlined"
              size="small"
              startIcon={<LanguageIcon />}
              onClick={() => handleRequest("web")}
              disabled={request.isPending || openWeb.isPending}
              data-testid="web-button"
            >
              {t("remote.web")}
            </Button>
            <Button
              variant="contained"
              size="small"
              startIcon={<TerminalIcon />}
              onClick={() => handleRequest("terminal")}
              disabled={request.isPending}
              data-testid="terminal-button"
            >
              {t("remote.terminal")}
            </Button>
          </>
        ) : null}
      </Stack>
      <Divider />
      {live.length + ended.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ px: 2, py: 1.5 }}>
          {t("remote.none")}
        </Typography>
      ) : (
        [...live, ...ended].map((session) => (
          <SessionRow key={session._id} session={session} onOpen={handleOpen} onReplay={setReplayed} />
        ))
      )}
      {open ? (
        <Suspense fallback={null}>
          <TerminalDialog session={open} onClose={() => setOpen(null)} />
        </Suspense>
      ) : null}
      {replayed ? (
        <Suspense fallback={null}>
          <ReplayDialog session={replayed} onClose={() => setReplayed(null)} />
        </Suspense>
      ) : null}
    </Card>
  );
}
