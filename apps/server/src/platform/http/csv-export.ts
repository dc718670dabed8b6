import { Readable } from "node:stream";
import { CSV_EXPORTS, type CsvExportSection } from "@cellfleet/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireSession, type SessionContext } from "../auth/session-guard";
import { AppError } from "../errors";
import { type CsvCell, toCsvLines } from "./csv";
import { ERROR_RESPONSES } from "./schemas";

// The one way a list answers CSV (docs/adr/024-csv-export.md): `POST {path}/export` with the list's
// request body, the list's permission from the contract's CSV_EXPORTS row, and the rows streamed a
// chunk (one repo page) at a time through csv-stringify, so a 100,000-row export holds one page.

/** A chunk of rows, in the list's order; each chunk is one repo page. */
export type CsvChunk = readonly (readonly CsvCell[])[];

/** What a list gives to export itself. */
export interface CsvExportSpec<B extends z.ZodTypeAny> {
  /** The list's request body schema: the same filters; paging fields are ignored. */
  readonly body: B;
  readonly summary: string;
  readonly columns: readonly string[];
  /**
   * The rows, one repo page a yield. Checks (domain, filters) run before the first yield, so they
   * answer with their status; the generator is pulled only as fast as the client reads.
   */
  readonly rows: (session: SessionContext, body: z.output<B>) => AsyncGenerator<CsvChunk>;
}

/** The route body type: the list's body or none (Fastify gives null for no body). */
type Api = FastifyInstance<
  // biome-ignore lint/suspicious/noExplicitAny: the server types of whichever instance registers it
  any,
  // biome-ignore lint/suspicious/noExplicitAny: as above
  any,
  // biome-ignore lint/suspicious/noExplicitAny: as above
  any,
  // biome-ignore lint/suspicious/noExplicitAny: as above
  any,
  ZodTypeProvider
>;

/**
 * Header, then the chunks as CSV text. The first chunk is awaited before anything is returned, so a
 * refusal (DEVICE_NOT_FOUND, a domain-less caller) is an ordinary error answer, not a broken 200.
 */
export async function csvStream(
  columns: readonly string[],
  chunks: AsyncGenerator<CsvChunk>,
): Promise<AsyncGenerator<string>> {
  const first = await chunks.next();
  return (async function* () {
    let text = toCsvLines([columns]);
    if (!first.done && first.value.length > 0) text += toCsvLines(first.value);
    yield text;
    if (first.done) return;
    for await (const chunk of chunks) if (chunk.length > 0) yield toCsvLines(chunk);
  })();
}

/** A missing body as the list's empty one; a list that needs a field (the uptime report's month) refuses it. */
function emptyBody<B extends z.ZodTypeAny>(schema: B): z.output<B> {
  const parsed = schema.safeParse({});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new AppError("BAD_REQUEST", `body.${issue?.path.join(".") ?? ""}: ${issue?.message ?? "required"}`);
}

/** Registers `POST {CSV_EXPORTS[section].path}/export` on an /api scope (one line per list). */
export function registerCsvExport<B extends z.ZodTypeAny>(
  app: Api,
  section: CsvExportSection,
  spec: CsvExportSpec<B>,
): void {
  const entry = CSV_EXPORTS[section];
  app.post(
    `${entry.path.replace(/^\/api/, "")}/export`,
    {
      schema: {
        tags: ["export"],
        summary: `${spec.summary} as CSV (${entry.filename}); the spec's EXPORT ${entry.path}`,
        body: spec.body.nullish(),
        response: {
          200: z.unknown().describe("text/csv: a header row, then a row per item, CRLF line ends"),
          ...ERROR_RESPONSES,
        },
      },
      config: { permission: entry.permission },
    },
    async (request, reply) => {
      const body = (request.body ?? emptyBody(spec.body)) as z.output<B>;
      const lines = await csvStream(spec.columns, spec.rows(requireSession(request), body));
      const stream = Readable.from(lines);
      // A failure after the 200 went out cannot change the status: the connection is cut, so the
      // download fails rather than saving a silently short file.
      stream.on("error", (error) => request.log.error({ err: error }, `the ${section} export failed`));
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${entry.filename}"`)
        .header("cache-control", "no-store")
        .send(stream);
    },
  );
}

/**
 * Walks a list by keyset: `fetch(after, limit)` answers the page after the cursor (null: the first),
 * in the list's order; `cursorOf` takes the cursor from a page's last row. Ends on a short page.
 */
export async function* keysetPages<Row, Cursor>(
  fetch: (after: Cursor | null, limit: number) => Promise<Row[]>,
  cursorOf: (row: Row) => Cursor,
  limit: number,
): AsyncGenerator<Row[]> {
  let after: Cursor | null = null;
  for (;;) {
    const rows = await fetch(after, limit);
    if (rows.length > 0) yield rows;
    if (rows.length < limit) return;
    after = cursorOf(rows[rows.length - 1] as Row);
  }
}
