import {
  can,
  type ErrorCode,
  SOCKET_CLOSE,
  type TerminalClientMessage,
  TerminalClientMessageSchema,
  type TerminalServerMessage,
} from "@cellfleet/contract";
import type { FastifyInstance } from "fastify";
import type { RawData, WebSocket } from "ws";
import { subjectOf } from "../../platform/auth/permissions";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import { createSessionResolver } from "../auth/session.service";
import type { TerminalHandle } from "./terminal-session";
import type { TunnelRuntime } from "./tunnels.runtime";

/** The browser must send its hello within this time. */
const HELLO_TIMEOUT_MS = 10_000;

function parseMessage(data: RawData): TerminalClientMessage | null {
  try {
    const parsed = TerminalClientMessageSchema.safeParse(JSON.parse(data.toString()));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function handleMessage(handle: TerminalHandle, message: TerminalClientMessage): void {
  if (message.type === "input") handle.input(message.data);
  else if (message.type === "resize") handle.resize(message.cols, message.rows);
}

/**
 * GET /api/tunnel/{id}/terminal: the terminal's socket (ADR 038). The first message is
 * `{type:"hello", token, cols, rows}`; only the session's author, with `tunnels.open`, opens it.
 * A refusal is sent as `ended` with its §8 code, then the socket closes.
 */
export function registerTerminalSocket(
  app: FastifyInstance,
  ctx: AppContext,
  runtime: () => TunnelRuntime,
): void {
  const resolveSession = createSessionResolver(ctx);
  app.get<{ Params: { id: string } }>(
    "/tunnel/:id/terminal",
    { websocket: true, config: { isPublic: true }, schema: { hide: true } },
    (socket: WebSocket, request) => {
      let handle: TerminalHandle | null = null;
      let phase: "hello" | "opening" | "open" | "closed" = "hello";
      // What the browser sends while the session opens is kept for it.
      const typedEarly: TerminalClientMessage[] = [];
      const send = (message: TerminalServerMessage) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
        if (message.type === "ended" && phase !== "closed") {
          phase = "closed";
          socket.close(1000, message.reason ?? message.code ?? "ended");
        }
      };
      const refuse = (code: ErrorCode) => send({ type: "ended", reason: null, code });
      const helloTimer = setTimeout(() => {
        if (phase === "hello") socket.close(SOCKET_CLOSE.helloTimeout, "hello timeout");
      }, HELLO_TIMEOUT_MS);
      socket.on("message", (data) => {
        const message = parseMessage(data);
        if (message === null) return;
        if (phase === "hello" && message.type === "hello") {
          phase = "opening";
          clearTimeout(helloTimer);
          void (async () => {
            try {
              const session = await resolveSession(message.token, { touch: true });
              if (!can(subjectOf(session), "tunnels.open")) throw new AppError("PERMISSION_DENIED");
              const opened = await runtime().openTerminal(
                session,
                request.params.id,
                { cols: message.cols, rows: message.rows },
                send,
              );
              if (socket.readyState !== socket.OPEN) opened.end("closed");
              else {
                handle = opened;
                phase = "open";
                for (const early of typedEarly.splice(0)) handleMessage(opened, early);
              }
            } catch (error) {
              if (!(error instanceof AppError)) request.log.error({ err: error }, "terminal open failed");
              refuse(error instanceof AppError ? error.code : "WRITE_DATA_FAILED");
            }
          })();
          return;
        }
        if (phase === "opening") typedEarly.push(message);
        else if (phase === "open" && handle !== null) handleMessage(handle, message);
      });
      socket.on("error", (error) => request.log.debug({ err: error }, "terminal socket error"));
      socket.on("close", () => {
        clearTimeout(helloTimer);
        phase = "closed";
        handle?.end("closed");
      });
    },
  );
}
