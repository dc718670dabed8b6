import type { Command, Execution } from "@cellfleet/contract";
import { describe, expect, it, vi } from "vitest";
import { getCommand, getCommands, getReports } from "./commands.api";
import {
  commandPushLog,
  commandQueryOptions,
  commandsQueryOptions,
  executionsQueryOptions,
} from "./commands.queries";

vi.mock("./commands.api", () => ({ getCommand: vi.fn(), getCommands: vi.fn(), getReports: vi.fn() }));

// Only the fields the live merge reads: ids, and a status to tell versions apart.
const command = (id: string, status: string) => ({ _id: id, status }) as unknown as Command;
const execution = (id: string, commandId: string, status: string) =>
  ({ _id: id, command_id: commandId, status }) as unknown as Execution;

/** A query function called as TanStack Query calls it; the API's answer comes when the test says. */
function heldRead<T>(api: (...args: never[]) => Promise<T>, queryFn: unknown) {
  let answer: (value: T) => void = () => {};
  vi.mocked(api).mockImplementation(() => new Promise<T>((resolve) => (answer = resolve)));
  const context = { signal: new AbortController().signal };
  const read = (queryFn as (context: unknown) => Promise<T>)(context);
  return { read, answer: (value: T) => answer(value) };
}

describe("a commands read that crosses the socket's pushes", () => {
  it("keeps a command's status pushed while its page, its executions and the list were read", async () => {
    commandPushLog.record({ commands: [command("c1", "sent")], executions: [] });
    const detail = heldRead(getCommand, commandQueryOptions("c1").queryFn);
    const executions = heldRead(getReports, executionsQueryOptions("c1").queryFn);
    const list = heldRead(getCommands, commandsQueryOptions({}).queryFn);
    // The server read the command still sent; then it completed, and the push came before the answers.
    commandPushLog.record({
      commands: [command("c1", "completed")],
      executions: [execution("e1", "c1", "completed"), execution("x1", "other", "completed")],
    });
    detail.answer(command("c1", "sent"));
    executions.answer([execution("e1", "c1", "sent"), execution("e2", "c1", "sent")]);
    list.answer([command("c2", "sent"), command("c1", "sent")]);
    expect(await detail.read).toEqual(command("c1", "completed"));
    expect(await executions.read).toEqual([
      execution("e1", "c1", "completed"),
      execution("e2", "c1", "sent"),
    ]);
    expect(await list.read).toEqual([command("c2", "sent"), command("c1", "completed")]);
  });
});
