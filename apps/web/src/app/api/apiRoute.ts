import type { ApiBody, ApiParamName, ApiParams, ApiRoute, CsvExportRoute } from "@cellfleet/contract";
import type { HttpMethod } from "./http";

/**
 * The `params` option: required, with exactly the path's `{names}`, when the route has any; absent
 * otherwise. A missing, misspelt or extra parameter is a compile error.
 */
export type ParamsOption<R extends string> = [ApiParamName<R>] extends [never]
  ? { params?: undefined }
  : { params: ApiParams<R> };

/** The `body` option: the route's body from the contract, optional when every field is. */
export type BodyOption<B> = Record<string, never> extends B ? { body?: B } : { body: B };

/** The body a route takes, or a CSV export's list request. */
export type RouteBody<R extends ApiRoute | CsvExportRoute> = R extends ApiRoute ? ApiBody<R> : object;

/** Options that are all optional may be left out; otherwise the options argument is required. */
export type OptionsArgs<O> = Record<string, never> extends O ? [options?: O] : [options: O];

/** A route's method and its path with each `{name}` replaced by the encoded parameter. */
export function resolveRoute(
  route: string,
  params: Readonly<Record<string, string>> | undefined,
): { method: HttpMethod; path: string } {
  const space = route.indexOf(" ");
  const method = route.slice(0, space) as HttpMethod;
  const path = route.slice(space + 1).replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${route}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
  return { method, path };
}
