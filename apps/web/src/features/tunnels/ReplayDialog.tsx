import "@xterm/xterm/css/xterm.css";
import { type RecordingLine, RecordingLineSchema, type TunnelSession } from "@cellfleet/contract";
import PauseIcon from "@mui/icons-material/Pause";
import PlayArrowIcon from "@mui/icons-material/PlayArrow";
import ReplayIcon from "@mui/icons-material/Replay";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import Typography from "@mui/material/Typography";
import { Terminal } from "@xterm/xterm";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiStream } from "../../app/api/http";
import { formatDateTime } from "../../components/formatDate";
import { type Recording, readRecording } from "./recording";
import { TerminalFrame } from "./TerminalFrame";

const SPEEDS = [1, 2, 4] as const;

/**
 * A recorded terminal session played back (issue 29, ADR 038): the asciicast read from
 * GET /api/tunnel/{id}/recording into xterm.js at its own pace (quiet spells capped), with pause,
 * again and speed. Loaded only when a replay opens, like the terminal.
 */
export function ReplayDialog({ session, onClose }: { session: TunnelSession; onClose: () => void }) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement | null>(null);
  const [recording, setRecording] = useState<Recording | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isPlaying, setPlaying] = useState(true);
  const [speed, setSpeed] = useState<number>(1);
  const [shown, setShown] = useState(0);
  const position = useRef(0);

  useEffect(() => {
    const controller = new AbortController();
    const lines: RecordingLine[] = [];
    apiStream("GET /api/tunnel/{id}/recording", {
      params: { id: session._id },
      schema: RecordingLineSchema,
      signal: controller.signal,
      quiet: true,
      onLine: (line) => lines.push(line),
    })
      .then(() => setRecording(readRecording(lines)))
      .catch((cause: unknown) => {
        if (!controller.signal.aborted) setError(cause instanceof Error ? cause.message : String(cause));
      });
    return () => controller.abort();
  }, [session._id]);

  const terminal = useRef<Terminal | null>(null);
  useEffect(() => {
    const element = host.current;
    if (!element || !recording) return;
    const term = new Terminal({
      cols: recording.width,
      rows: recording.height,
      fontSize: 13,
      disableStdin: true,
    });
    term.open(element);
    terminal.current = term;
    return () => {
      terminal.current = null;
      term.dispose();
    };
  }, [recording]);

  // Plays from `position` while playing (Again sets it back to the start on a cleared screen).
  useEffect(() => {
    const term = terminal.current;
    if (!recording || !term || !isPlaying) return;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const step = () => {
      const index = position.current;
      const output = recording.outputs[index];
      if (!output) {
        setPlaying(false);
        return;
      }
      term.write(output.text);
      position.current = index + 1;
      setShown(index + 1);
      const next = recording.outputs[index + 1];
      timer = next ? setTimeout(step, ((next.at - output.at) * 1000) / speed) : setTimeout(step, 0);
    };
    timer = setTimeout(step, 0);
    return () => {
      if (timer) clearTimeout(timer);
    };
  }, [recording, isPlaying, speed]);

  const handleAgain = () => {
    terminal.current?.reset();
    position.current = 0;
    setShown(0);
    setPlaying(true); // a replay still running goes on from the start at its next output
  };
  const total = recording?.outputs.length ?? 0;
  const isOver = recording !== null && shown >= total;

  return (
    <TerminalFrame
      title={t("remote.replayOf", { ident: session.ident })}
      testId="replay-dialog"
      onClose={onClose}
    >
      <Typography variant="body2" color="text.secondary">
        {t("remote.replayLine", {
          author: session.author,
          time: formatDateTime(Date.parse(session.open_time ?? session.create_time)),
        })}
      </Typography>
      {error ? (
        <Alert severity="error" data-testid="replay-error">
          {t("remote.replayMissing")}
        </Alert>
      ) : null}
      <Stack direction="row" sx={{ alignItems: "center", gap: 1, flexWrap: "wrap" }}>
        <IconButton
          aria-label={isPlaying ? t("remote.pause") : t("remote.play")}
          onClick={() => setPlaying((value) => !value)}
          disabled={!recording || isOver}
          data-testid="replay-toggle"
        >
          {isPlaying && !isOver ? <PauseIcon /> : <PlayArrowIcon />}
        </IconButton>
        <IconButton
          aria-label={t("remote.again")}
          onClick={handleAgain}
          disabled={!recording}
          data-testid="replay-again"
        >
          <ReplayIcon />
        </IconButton>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={speed}
          onChange={(_, value: number | null) => value && setSpeed(value)}
          aria-label={t("remote.speed")}
        >
          {SPEEDS.map((value) => (
            <ToggleButton key={value} value={value}>
              {`${value}×`}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <Typography variant="body2" color="text.secondary" sx={{ ml: "auto" }} data-testid="replay-progress">
          {recording ? t("remote.replayProgress", { shown, total }) : t("remote.replayLoading")}
        </Typography>
      </Stack>
      <Box
        ref={host}
        data-testid="replay-terminal"
        sx={{
          bgcolor: "#000",
          borderRadius: 1,
          p: 0.5,
          overflow: "auto",
          minHeight: { xs: 240, md: 360 },
        }}
      />
    </TerminalFrame>
  );
}
