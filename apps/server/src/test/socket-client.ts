import WebSocket from "ws";

/** A test's view of one realtime connection: messages in arrival order and how it closed. */
export interface TestSocket {
  ws: WebSocket;
  /** Resolves with the next message not yet taken (JSON-parsed). */
  nextMessage(timeoutMs?: number): Promise<unknown>;
  /** Resolves when the server closes the connection. */
  closed: Promise<{ code: number; reason: string }>;
  sendJson(value: unknown): void;
}

/** Opens a socket to the given URL and waits until it is open. */
export async function openTestSocket(url: string): Promise<TestSocket> {
  const ws = new WebSocket(url);
  const queue: unknown[] = [];
  const waiters: ((message: unknown) => void)[] = [];
  ws.on("message", (data) => {
    const message = JSON.parse(data.toString());
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else queue.push(message);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() }));
  });
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  return {
    ws,
    closed,
    sendJson: (value) => ws.send(JSON.stringify(value)),
    nextMessage: (timeoutMs = 5000) => {
      if (queue.length > 0) return Promise.resolve(queue.shift());
      return new Promise((resolve, reject) => {
        const waiter = (message: unknown) => {
          clearTimeout(timer);
          resolve(message);
        };
        // A waiter that timed out leaves, so the next message goes to the next call.
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error("no message arrived in time"));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
  };
}
