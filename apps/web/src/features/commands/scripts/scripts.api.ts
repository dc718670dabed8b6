import {
  type SavedScript,
  SavedScriptSchema,
  type SaveScript,
  type ScriptKind,
  ScriptsAnswerSchema,
} from "@cellfleet/contract";
import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../../app/api/http";

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
      (await apiRequest(`POST /api/${kind}s/`, { body: {}, schema: ScriptsAnswerSchema, signal })).items,
  });
}

/** POST /api/script/{id} or /api/template/{id}. */
export function scriptQueryOptions(kind: ScriptKind, id: string) {
  return queryOptions({
    queryKey: scriptsKeys.detail(kind, id),
    queryFn: ({ signal }) =>
      apiRequest(`POST /api/${kind}/{id}`, {
        params: { id },
        schema: SavedScriptSchema,
        signal,
      }),
  });
}

/** POST …/new (version 1) or …/{id}/save (a new version). */
export function saveScript(kind: ScriptKind, id: string, body: SaveScript): Promise<SavedScript> {
  return id === "new"
    ? apiRequest(`POST /api/${kind}/new`, { body, schema: SavedScriptSchema })
    : apiRequest(`POST /api/${kind}/{id}/save`, { params: { id }, body, schema: SavedScriptSchema });
}

/** DELETE /api/script/{id} or /api/template/{id}. */
export async function deleteScript(kind: ScriptKind, id: string): Promise<void> {
  await apiRequest(`DELETE /api/${kind}/{id}`, { params: { id } });
}
