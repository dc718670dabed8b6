import {
  type SavedScript,
  SavedScriptSchema,
  type SaveScript,
  type ScriptKind,
  ScriptsAnswerSchema,
} from "@cellfleet/contract";
import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../../app/api/http";

/** The API paths of a kind: saved scripts (/api/scripts/, /api/script/…) or templates. */
const PATHS: Record<ScriptKind, { list: string; one: string }> = {
  script: { list: "/api/scripts/", one: "/api/script" },
  template: { list: "/api/templates/", one: "/api/template" },
};

/** Query keys of saved scripts and templates. */
export const scriptsKeys = {
  all: ["scripts"] as const,
  list: (kind: ScriptKind) => [...scriptsKeys.all, kind, "list"] as const,
  detail: (kind: ScriptKind, id: string) => [...scriptsKeys.all, kind, "detail", id] as const,
};

/** POST /api/scripts/ or /api/templates/. */
export function listScriptsQueryOptions(kind: ScriptKind) {
  return queryOptions({
    queryKey: scriptsKeys.list(kind),
    queryFn: async ({ signal }) =>
      (await apiRequest(PATHS[kind].list, { body: {}, schema: ScriptsAnswerSchema, signal })).items,
  });
}

/** POST /api/script/{id} or /api/template/{id}. */
export function scriptQueryOptions(kind: ScriptKind, id: string) {
  return queryOptions({
    queryKey: scriptsKeys.detail(kind, id),
    queryFn: ({ signal }) =>
      apiRequest(`${PATHS[kind].one}/${encodeURIComponent(id)}`, {
        body: {},
        schema: SavedScriptSchema,
        signal,
      }),
  });
}

/** POST …/new (version 1) or …/{id}/save (a new version). */
export function saveScript(kind: ScriptKind, id: string, body: SaveScript): Promise<SavedScript> {
  const url = id === "new" ? `${PATHS[kind].one}/new` : `${PATHS[kind].one}/${encodeURIComponent(id)}/save`;
  return apiRequest(url, { body: { ...body }, schema: SavedScriptSchema });
}

/** DELETE /api/script/{id} or /api/template/{id}. */
export async function deleteScript(kind: ScriptKind, id: string): Promise<void> {
  await apiRequest(`${PATHS[kind].one}/${encodeURIComponent(id)}`, { method: "DELETE" });
}
