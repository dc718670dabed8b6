import "@xterm/xterm/css/xterm.css";
import type { TerminalServerMessage, TunnelSession } from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { FitAddon } from "@xterm/addon-fit";
import { Terminal } from "@xterm/xterm";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { translateErrorCode } from "../../app/messages/texts";
import { sessionStore } from "../../app/session/sessionStore";
import { TerminalFrame } from "./TerminalFrame";

type TerminalPhase = "connecting" | "open" | { reason: string | null; code?: string };

function terminalUrl(id: string): string {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${window.location.host}/api/tunnel/${id}/terminal`;
}

/**
 * The router's shell in the browser (issue 29, ADR 038): xterm.js over the session's own socket.
 * Loaded only when a terminal opens, so xterm weighs on no other page.
 */
export function TerminalDialog({ session, onClose }: { session: TunnelSession; onClose: () => void }) {
  const { t } = useTranslation();
  // The dialog's content mounts a render after the dialog (MUI's portal waits for its container), so
  // the terminal's box is taken with a callback ref: an effect reading a ref object on the first
  // render would find nothing and never open the socket.
  const [element, setElement] = useState<HTMLDivElement | null>(null);
  const [phase, setPhase] = useState<TerminalPhase>("connecting");

  useEffect(() => {
    if (!element) return;
    const terminal = new Terminal({ cursorBlink: true, fontSize: 14, convertEol: false });
    const fit = new FitAddon();
    terminal.loadAddon(fit);
    terminal.open(element);
    fit.fit();
    const socket = new WebSocket(terminalUrl(session._id));
    const send = (message: object) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    };
    socket.onopen = () =>
      send({ type: "hello", token: sessionStore.token() ?? "", cols: terminal.cols, rows: terminal.rows });
    socket.onmessage = (event) => {
      const message = JSON.parse(String(event.data)) as TerminalServerMessage;
      if (message.type === "output") terminal.write(message.data);
      else if (message.type === "state") setPhase(message.state);
      else setPhase({ reason: message.reason, code: message.code });
    };
    socket.onclose = () =>
      setPhase((current) => (typeof current === "object" ? current : { reason: "closed" }));
    const typing = terminal.onData((data) => send({ type: "input", data }));
    const resizing = terminal.onResize(({ cols, rows }) => send({ type: "resize", cols, rows }));
    const observer = new ResizeObserver(() => fit.fit());
    observer.observe(element);
    terminal.focus();
    return () => {
      observer.disconnect();
      typing.dispose();
      resizing.dispose();
      socket.close();
      terminal.dispose();
    };
  }, [element, session._id]);

  const ended = typeof phase === "object" ? phase : null;
  return (
    <TerminalFrame
      title={t("remote.terminalOf", { ident: session.ident })}
      testId="terminal-dialog"
      onClose={onClose}
    >
      <Typography variant="body2" color="text.secondary" data-testid="terminal-phase">
        {ended ? null : t(`remote.phase.${phase as "connecting" | "open"}`)}
      </Typography>
      {ended ? (
        <Alert severity={ended.code ? "error" : "info"} data-testid="terminal-ended">
          {ended.code
            ? translateErrorCode(ended.code, ended.code)
            : t(`remote.reason.${ended.reason ?? "closed"}`)}
        </Alert>
      ) : null}
      <Box
        ref={setElement}
        data-testid="terminal"
        sx={{
          height: { xs: 360, md: 480 },
          bgcolor: "#000",
          borderRadius: 1,
          p: 0.5,
          overflow: "hidden",
        }}
      />
    </TerminalFrame>
  );
}
