import type { ServerSocketMessage, TagScope } from "@cellfleet/contract";
import type { FastifyBaseLogger } from "fastify";
import { commandIdsOf, idOf, isDeviceWithin, scopeDomainMessage } from "./tag-scoped-messages";

/** What a tag-limited socket reads of its scope (ADR 041); the devices and commands features answer it. */
export interface TagScopeReader {
  /** The ids of the domain's routers within the scope, as their tags are now. */
  findRouterIdsWithin(domainId: string, scope: TagScope): Promise<string[]>;
  /** Of these commands of the domain, those with no router outside the scope. */
  findCommandIdsWithin(domainId: string, scope: TagScope, commandIds: readonly string[]): Promise<string[]>;
}

/**
 * The domain's messages for one tag-limited socket, cut to its routers (ADR 041). It keeps the ids
 * of the routers within the scope, read when the socket is ready and at every session re-check and
 * kept current by the device pushes (which carry tags), so collects, alerts, remote sessions and
 * executions are cut without a query; a command is read against the scope once per message. The
 * messages pass one at a time, in the order they came, so a read never lets a later one overtake.
 */
export class TagScopedFeed {
  private routers = new Set<string>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly reader: TagScopeReader,
    private readonly domainId: string,
    private scope: TagScope,
    private readonly isShowing: (deviceId: string) => boolean,
    private readonly deliver: (message: ServerSocketMessage) => void,
    private readonly log: FastifyBaseLogger,
  ) {
    this.refresh(scope);
  }

  /** Reads the scope's routers again (the session's scope as re-checked; tags changed meanwhile). */
  refresh(scope: TagScope): void {
    this.enqueue(async () => {
      this.scope = scope;
      this.routers = new Set(await this.reader.findRouterIdsWithin(this.domainId, scope));
    });
  }

  /** A domain message: delivered cut to the scope, after those before it. */
  offer(message: ServerSocketMessage): void {
    this.enqueue(async () => {
      const ids = commandIdsOf(message);
      const commands = new Set(
        ids.length > 0 ? await this.reader.findCommandIdsWithin(this.domainId, this.scope, ids) : [],
      );
      if (message.type === "devices") this.track(message);
      const scoped = scopeDomainMessage(message, this.scope, {
        isShowing: this.isShowing,
        hasRouter: (id) => this.routers.has(id),
        hasCommand: (id) => commands.has(id),
      });
      if (scoped) this.deliver(scoped);
    });
  }

  private track(message: Extract<ServerSocketMessage, { type: "devices" }>): void {
    for (const item of message.content) {
      const id = idOf(item);
      if (message.action !== "delete" && isDeviceWithin(this.scope, item)) this.routers.add(id);
      else this.routers.delete(id);
    }
  }

  private enqueue(step: () => Promise<void>): void {
    this.queue = this.queue.then(step).catch((error: unknown) => {
      // What could not be read is read again by the page: it loses nothing and learns nothing.
      this.log.warn({ err: error }, "a tag-limited socket's scope could not be read");
      this.deliver({ type: "reread" });
    });
  }
}
