import type { Command, CommandsSocketContent, Execution } from "@cellfleet/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { commandsKeys } from "../../app/queryKeys";
import { PushLog } from "../../app/realtime/pushLog";
import { useRealtime } from "../../app/realtime/useRealtime";
import {
  actOnCommand,
  createCommand,
  deleteCommandType,
  getCommand,
  getCommands,
  getCommandTypes,
  getReport,
  getReports,
} from "./commands.api";
import { deleteEach } from "./deleteEach";

/**
 * The socket's `commands` messages of the last minute (ADR 035 item 7): a list, a command or its
 * executions read while they came get them applied again, as the live hook applies them, so an
 * answer the server read before a change does not put the older state back.
 */
export const commandPushLog = new PushLog<CommandsSocketContent>();

/** The commands list with its facets (status, type). */
export function commandsQueryOptions(filter: { status?: string[]; type?: string[] }) {
  return queryOptions({
    queryKey: commandsKeys.list(filter),
    queryFn: async ({ signal }) => {
      const mark = commandPushLog.mark();
      const rows = await getCommands(filter as Parameters<typeof getCommands>[0], signal);
      return commandPushLog.since(mark).reduce((next, push) => mergeById(next, push.commands, true), rows);
    },
  });
}

export function commandQueryOptions(id: string) {
  return queryOptions({
    queryKey: commandsKeys.detail(id),
    queryFn: async ({ signal }) => {
      const mark = commandPushLog.mark();
      const command = await getCommand(id, signal);
      return commandPushLog
        .since(mark)
        .reduce((next, push) => push.commands.find((pushed) => pushed._id === id) ?? next, command);
    },
  });
}

export function executionsQueryOptions(commandId: string) {
  return queryOptions({
    queryKey: commandsKeys.executions(commandId),
    queryFn: async ({ signal }) => {
      const mark = commandPushLog.mark();
      const rows = await getReports({ command_id: commandId }, signal);
      return commandPushLog.since(mark).reduce((next, push) => {
        const executions = push.executions.filter((row) => row.command_id === commandId);
        return executions.length > 0 ? mergeById(next, executions, false) : next;
      }, rows);
    },
  });
}

export function reportsQueryOptions(filter: { device_id?: string }) {
  return queryOptions({
    queryKey: commandsKeys.reports(filter),
    queryFn: ({ signal }) => getReports(filter, signal),
  });
}

export function reportQueryOptions(deviceId: string, reportId: string) {
  return queryOptions({
    queryKey: commandsKeys.report(deviceId, reportId),
    queryFn: ({ signal }) => getReport(deviceId, reportId, signal),
  });
}

export function commandTypesQueryOptions() {
  return queryOptions({ queryKey: commandsKeys.types(), queryFn: ({ signal }) => getCommandTypes(signal) });
}

/**
 * Deletes custom command types (one or the checked ones, after the two-step confirm), then reloads
 * the types; the transport has shown each refusal already.
 */
export function useDeleteCommandTypes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: readonly string[]) => deleteEach(ids, deleteCommandType),
    onSettled: () => queryClient.invalidateQueries({ queryKey: commandsKeys.types() }),
  });
}

/** Replaces rows by id in a cached list, keeping its order; new commands go first. */
export function mergeById<T extends { _id: string }>(
  rows: readonly T[],
  changed: readonly T[],
  isNewFirst: boolean,
): T[] {
  const byId = new Map(changed.map((row) => [row._id, row]));
  const merged = rows.map((row) => byId.get(row._id) ?? row);
  const known = new Set(rows.map((row) => row._id));
  const added = changed.filter((row) => !known.has(row._id));
  return isNewFirst ? [...added, ...merged] : [...merged, ...added];
}

/**
 * Keeps the cached commands and executions live from the socket's `commands` message: changed
 * commands replace theirs; executions replace theirs, or (when the server sent only counts) the
 * command's executions are read again.
 */
export function useLiveCommands(): void {
  const queryClient = useQueryClient();
  useRealtime("commands", (message) => {
    const content = (message as { content?: CommandsSocketContent }).content;
    if (!content) return;
    commandPushLog.record(content);
    for (const command of content.commands) {
      queryClient.setQueryData<Command>(commandsKeys.detail(command._id), command);
      const executions = content.executions.filter((row) => row.command_id === command._id);
      if (executions.length > 0)
        queryClient.setQueryData<Execution[]>(commandsKeys.executions(command._id), (rows) =>
          rows ? mergeById(rows, executions, false) : rows,
        );
      else void queryClient.invalidateQueries({ queryKey: commandsKeys.executions(command._id) });
    }
    queryClient.setQueriesData<Command[]>({ queryKey: commandsKeys.lists() }, (rows) =>
      rows ? mergeById(rows, content.commands, true) : rows,
    );
  });
}

/** Sends a new command; lists are read again. */
export function useCreateCommand() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCommand,
    onSuccess: (command) => {
      queryClient.setQueryData(commandsKeys.detail(command._id), command);
      void queryClient.invalidateQueries({ queryKey: commandsKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: commandsKeys.types() });
    },
  });
}

/** Approve, decline, cancel or retry the failed: the command and the lists are updated. */
export function useCommandAction(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vars: { action: "approve" | "decline" | "cancel" | "retry-failed"; reason?: string }) =>
      actOnCommand(id, vars.action, { reason: vars.reason }),
    onSuccess: (command) => {
      queryClient.setQueryData(commandsKeys.detail(command._id), command);
      void queryClient.invalidateQueries({ queryKey: commandsKeys.executions(id) });
      void queryClient.invalidateQueries({ queryKey: commandsKeys.lists() });
    },
  });
}
