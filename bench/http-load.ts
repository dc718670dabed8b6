// A minimal HTTP/1.1 keep-alive client for load generators: one socket, one request at a time, the
// request written as one buffer and the answer read by content-length or chunked framing. The
// load generator shares the machine's two cores with the server it measures; node:http's client cost
// about 0.18 ms of CPU a request there, this one a tenth of that, CPU the server under test gets back.
import net from "node:net";

export interface TimedAnswer {
  status: number;
  /** From sending to the end of the second body line (the first row after an NDJSON header). */
  firstRowMs: number | null;
  totalMs: number;
  /** The body, kept only for answers other than 200. */
  body: string | null;
}

interface Pending {
  start: number;
  resolve: (answer: TimedAnswer) => void;
  reject: (error: Error) => void;
}

const HEADER_END = Buffer.from("\r\n\r\n");
const CRLF = Buffer.from("\r\n");

export class KeepAliveClient {
  private readonly socket: net.Socket;
  private buffer: Buffer = Buffer.alloc(0);
  private pending: Pending | null = null;
  private status = 0;
  /** Bytes of body still to come (content-length), or null while chunked. */
  private remaining: number | null = null;
  private isChunked = false;
  private inBody = false;
  private newlines = 0;
  private firstRowMs: number | null = null;
  private errorBody: Buffer[] = [];
  private readonly ready: Promise<void>;

  constructor(baseUrl: string) {
    const url = new URL(baseUrl);
    this.socket = net.connect(Number(url.port), url.hostname);
    this.socket.setNoDelay(true);
    this.ready = new Promise((resolve, reject) => {
      this.socket.once("connect", () => resolve());
      this.socket.once("error", reject);
    });
    this.socket.on("data", (data: Buffer) => this.onData(data));
    this.socket.on("error", (error) => this.fail(error));
    this.socket.on("close", () => this.fail(new Error("the server closed the connection")));
  }

  /** POSTs a JSON body and resolves when the whole answer has arrived. */
  async postJson(path: string, headers: Record<string, string>, body: unknown): Promise<TimedAnswer> {
    await this.ready;
    if (this.pending) throw new Error("one request at a time");
    const payload = Buffer.from(JSON.stringify(body));
    let head = `POST ${path} HTTP/1.1\r\nhost: bench\r\ncontent-type: application/json\r\ncontent-length: ${payload.length}\r\n`;
    for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
    const request = Buffer.concat([Buffer.from(`${head}\r\n`), payload]);
    return new Promise((resolve, reject) => {
      this.pending = { start: performance.now(), resolve, reject };
      this.socket.write(request);
    });
  }

  close(): void {
    this.socket.removeAllListeners("close");
    this.socket.destroy();
  }

  private fail(error: Error): void {
    const pending = this.pending;
    this.pending = null;
    pending?.reject(error);
  }

  private onData(data: Buffer): void {
    this.buffer = this.buffer.length === 0 ? data : Buffer.concat([this.buffer, data]);
    try {
      this.parse();
    } catch (error) {
      this.fail(error as Error);
      this.socket.destroy();
    }
  }

  private parse(): void {
    const pending = this.pending;
    if (!pending) return;
    if (!this.inBody) {
      const end = this.buffer.indexOf(HEADER_END);
      if (end === -1) return;
      const head = this.buffer.subarray(0, end).toString("latin1");
      this.buffer = this.buffer.subarray(end + HEADER_END.length);
      this.status = Number(head.slice(9, 12));
      const length = /\r\ncontent-length: *(\d+)/i.exec(head);
      this.isChunked = /\r\ntransfer-encoding: *chunked/i.test(head);
      if (!length && !this.isChunked) throw new Error(`an answer without length or chunks: ${head}`);
      this.remaining = length ? Number(length[1]) : null;
      this.inBody = true;
      this.newlines = 0;
      this.firstRowMs = null;
      this.errorBody = [];
    }
    if (this.isChunked) this.readChunks(pending);
    else this.readBody(pending, this.buffer.subarray(0, this.remaining ?? 0), true);
  }

  private readBody(pending: Pending, piece: Buffer, isLengthFramed: boolean): void {
    this.take(pending, piece);
    if (!isLengthFramed) return;
    this.remaining = (this.remaining ?? 0) - piece.length;
    this.buffer = this.buffer.subarray(piece.length);
    if (this.remaining === 0) this.finish(pending);
  }

  private readChunks(pending: Pending): void {
    for (;;) {
      const lineEnd = this.buffer.indexOf(CRLF);
      if (lineEnd === -1) return;
      const size = Number.parseInt(this.buffer.subarray(0, lineEnd).toString("latin1"), 16);
      // A whole chunk (size line, data, CRLF) or wait for more bytes.
      if (this.buffer.length < lineEnd + 2 + size + 2) return;
      const data = this.buffer.subarray(lineEnd + 2, lineEnd + 2 + size);
      this.buffer = this.buffer.subarray(lineEnd + 2 + size + 2);
      if (size === 0) {
        this.finish(pending);
        return;
      }
      this.readBody(pending, data, false);
    }
  }

  /** Counts body lines for the first-row time and keeps the body of a failed answer. */
  private take(pending: Pending, piece: Buffer): void {
    if (this.status !== 200) this.errorBody.push(piece);
    if (this.firstRowMs !== null) return;
    for (let i = piece.indexOf(10); i !== -1 && this.newlines < 2; i = piece.indexOf(10, i + 1))
      this.newlines++;
    if (this.newlines >= 2) this.firstRowMs = performance.now() - pending.start;
  }

  private finish(pending: Pending): void {
    this.pending = null;
    this.inBody = false;
    pending.resolve({
      status: this.status,
      firstRowMs: this.firstRowMs,
      totalMs: performance.now() - pending.start,
      body: this.status === 200 ? null : Buffer.concat(this.errorBody).toString(),
    });
  }
}
