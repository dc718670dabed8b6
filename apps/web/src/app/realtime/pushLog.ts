// A short log of the socket's pushes of one kind, numbered, for reads that cross them: a page read
// may have been answered from rows the server read before a change it pushed while the answer was on
// its way, and the answer would undo the push with nothing to push again. A read takes `mark()` as it
// starts and applies `since(mark)` to what it got (ADR 035 item 7).

/** How long a push is kept, and how many: longer than any read of a page takes. */
export const PUSH_LOG_KEEP_MS = 60_000;
export const PUSH_LOG_MAX = 500;

interface Logged<T> {
  readonly sequence: number;
  readonly at: number;
  readonly value: T;
}

/** The pushes of the last minute (at most PUSH_LOG_MAX), numbered in the order they came. */
export class PushLog<T> {
  private sequence = 0;
  private entries: Logged<T>[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  record(value: T): void {
    const at = this.now();
    this.sequence += 1;
    this.entries.push({ sequence: this.sequence, at, value });
    const keepFrom = this.entries.findIndex((entry) => at - entry.at <= PUSH_LOG_KEEP_MS);
    const first = Math.max(keepFrom < 0 ? this.entries.length : keepFrom, this.entries.length - PUSH_LOG_MAX);
    if (first > 0) this.entries = this.entries.slice(first);
  }

  /** Where the log is now: what a read starting now has not seen. */
  mark(): number {
    return this.sequence;
  }

  /** The pushes recorded after `mark`, in order. */
  since(mark: number): T[] {
    return this.entries.filter((entry) => entry.sequence > mark).map((entry) => entry.value);
  }
}
