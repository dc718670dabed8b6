import { type SavedScript, SaveScriptSchema, type ScriptKind, templateVariables } from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { apiErrorText } from "../../../app/api/handleTransportError";
import { useOffers } from "../../../app/session/useOffers";
import { DeleteButton } from "../../../components/DeleteButton";
import { formatDateTime } from "../../../components/formatDate";
import { PageTitle } from "../../../components/PageTitle";
import { QueryState } from "../../../components/QueryState";
import { SCRIPT_PAGES } from "./SavedScriptsList";
import { deleteScript, saveScript, scriptQueryOptions, scriptsKeys } from "./scripts.api";
import { type OverrideRow, overridesOf, TemplateValuesEditor, valuesOf } from "./TemplateValuesEditor";

const LIST_PAGE: Record<ScriptKind, string> = { script: "/scripts", template: "/templates" };

/** /script/{id} (no file_type), /templates/new and /template/{id}: a saved script or template, versioned. */
export function SavedScriptPage({ kind, id }: { kind: ScriptKind; id: string }) {
  const { t } = useTranslation();
  const query = useQuery({ ...scriptQueryOptions(kind, id), enabled: id !== "new" });
  const title = t(id === "new" ? `scripts.${kind}.newTitle` : `scripts.${kind}.title`);
  return (
    <>
      <PageTitle>{title}</PageTitle>
      {id === "new" ? (
        <ScriptForm kind={kind} id={id} saved={null} />
      ) : (
        <QueryState query={query}>
          {(saved) => <ScriptForm key={saved.version} kind={kind} id={id} saved={saved} />}
        </QueryState>
      )}
    </>
  );
}

function ScriptForm({ kind, id, saved }: { kind: ScriptKind; id: string; saved: SavedScript | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const offers = useOffers();
  const queryClient = useQueryClient();
  const isReadOnly = !offers(kind === "script" ? "scripts.edit" : "templates.edit");
  const [name, setName] = useState(saved?.name ?? "");
  const [description, setDescription] = useState(saved?.description ?? "");
  const [text, setText] = useState(saved?.text ?? "");
  const [defaults, setDefaults] = useState<Record<string, string>>(saved?.defaults ?? {});
  const [rows, setRows] = useState<OverrideRow[]>(saved ? overridesOf(saved) : []);
  const variables = templateVariables(text);
  const body = {
    name,
    description,
    text,
    ...(kind === "template" ? valuesOf(defaults, rows, variables) : {}),
  };
  const isValid = SaveScriptSchema.safeParse(body).success;
  const save = useMutation({
    mutationFn: () => saveScript(kind, id, body),
    onSuccess: (answer) => {
      void queryClient.invalidateQueries({ queryKey: scriptsKeys.all });
      if (id === "new") void navigate(SCRIPT_PAGES[kind].one(answer._id), { replace: true });
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteScript(kind, id),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: scriptsKeys.all });
      void navigate(LIST_PAGE[kind]);
    },
  });
  return (
    <Card>
      <CardContent>
        <Stack spacing={2} sx={{ maxWidth: 880 }}>
          {saved ? (
            <Typography variant="body2" color="text.secondary" data-testid="script-version">
              {t("scripts.versionLine", { version: saved.version, count: saved.versions.length })}
            </Typography>
          ) : null}
          <TextField
            label={t("scripts.columns.name")}
            value={name}
            onChange={(e) => setName(e.target.value)}
            slotProps={{ input: { readOnly: isReadOnly } }}
            required
          />
          <TextField
            label={t("scripts.columns.description")}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            slotProps={{ input: { readOnly: isReadOnly } }}
          />
          <TextField
            label={t(`scripts.${kind}.text`)}
            helperText={
              kind === "template" ? t("scripts.template.syntax", { example: "{{apn}}" }) : undefined
            }
            multiline
            minRows={6}
            value={text}
            onChange={(e) => setText(e.target.value)}
            slotProps={{ input: { readOnly: isReadOnly, sx: { fontFamily: "monospace", fontSize: 14 } } }}
            data-testid="script-text"
          />
          {kind === "template" ? (
            <TemplateValuesEditor
              variables={variables}
              defaults={defaults}
              onDefaults={setDefaults}
              rows={rows}
              onRows={setRows}
              isReadOnly={isReadOnly}
            />
          ) : null}
          {save.isError ? <Alert severity="error">{apiErrorText(save.error)}</Alert> : null}
          {remove.isError ? <Alert severity="error">{apiErrorText(remove.error)}</Alert> : null}
          {save.isSuccess && id !== "new" ? <Alert severity="success">{t("scripts.saved")}</Alert> : null}
          {isReadOnly ? null : (
            <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
              <Button
                variant="contained"
                disabled={!isValid || save.isPending}
                onClick={() => save.mutate()}
                data-testid="save-script"
              >
                {t(id === "new" ? "scripts.create" : "scripts.saveVersion")}
              </Button>
              {saved ? <DeleteButton onDelete={() => remove.mutate()} hasText /> : null}
            </Stack>
          )}
          {saved && saved.versions.length > 1 ? (
            <Stack spacing={0.5}>
              <Typography variant="subtitle2">{t("scripts.versions")}</Typography>
              {saved.versions.map((version) => (
                <Typography key={version.version} variant="body2" color="text.secondary">
                  {t("scripts.versionBy", {
                    version: version.version,
                    name: version.author.name,
                    time: formatDateTime(version.create_time),
                  })}
                </Typography>
              ))}
            </Stack>
          ) : null}
        </Stack>
      </CardContent>
    </Card>
  );
}
