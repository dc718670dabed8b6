// The web's map of the API (spec section 7): each `METHOD /api/path/{param}` the console calls, with
// the body it sends and the answer (or the streamed lines) it gets, as the contract's schemas infer
// them. The server validates both with the same schemas; apps/server's `api-routes.test.ts` holds
// every key to a route the server registers. Type-only imports: no zod at run time, so the web's
// signed-in start may name these types without loading it (ADR 026).
import { ACCOUNT_ROUTES } from "./api-routes-accounts";
import { CONSOLE_ROUTES } from "./api-routes-console";
import { FLEET_ROUTES } from "./api-routes-fleet";
import { TOKEN_ROUTES } from "./api-routes-tokens";
import type { CSV_EXPORTS, CsvExportSection } from "./exports";

export type { ApiCall, ApiDownload, ApiStream, ApiUpload, NoBody, OkAnswer } from "./api-route-kinds";

/**
 * Every route the web calls, keyed `METHOD /api/path` with `{name}` for each path parameter, from
 * the tables of each area (api-routes-*.ts).
 */
export const API_ROUTES: typeof ACCOUNT_ROUTES &
  typeof FLEET_ROUTES &
  typeof CONSOLE_ROUTES &
  typeof TOKEN_ROUTES = {
  ...ACCOUNT_ROUTES,
  ...FLEET_ROUTES,
  ...CONSOLE_ROUTES,
  ...TOKEN_ROUTES,
};

export type ApiRoutes = typeof API_ROUTES;
export type ApiRoute = keyof ApiRoutes;
type RouteOfKind<K extends string> = {
  [R in ApiRoute]: ApiRoutes[R]["kind"] extends K ? R : never;
}[ApiRoute];
/** Routes answered with JSON. */
export type ApiCallRoute = RouteOfKind<"call">;
/** Routes answered with newline-delimited JSON. */
export type ApiStreamRoute = RouteOfKind<"stream">;
/** Routes that take a multipart file. */
export type ApiUploadRoute = RouteOfKind<"upload">;
/** A list's CSV export (spec section 7's `EXPORT /api/{section}`, served as `POST {path}/export`, ADR 024). */
export type CsvExportRoute = `POST ${(typeof CSV_EXPORTS)[CsvExportSection]["path"]}/export`;
/** Routes whose answer the browser saves as a file. */
export type ApiDownloadRoute = RouteOfKind<"download"> | CsvExportRoute;

/** The names of a path's `{parameters}`. */
export type ApiParamName<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | ApiParamName<Rest>
  : never;
/** The path parameters of a route, each a string the client encodes into the path. */
export type ApiParams<R extends string> = { readonly [K in ApiParamName<R>]: string };
/** The body a route takes (without the token, which the client adds). */
export type ApiBody<R extends ApiRoute> = ApiRoutes[R]["body" & keyof ApiRoutes[R]];
/** What a JSON call or an upload answers. */
export type ApiAnswer<R extends ApiCallRoute | ApiUploadRoute> = ApiRoutes[R]["answer" & keyof ApiRoutes[R]];
/** One line of a streamed list. */
export type ApiLine<R extends ApiStreamRoute> = ApiRoutes[R]["line"];
