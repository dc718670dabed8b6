import { type CommandDryRun, SETTINGS_COMMAND_TYPE } from "@cellfleet/contract";
import Box from "@mui/material/Box";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useOffers } from "../../../app/session/useOffers";
import { listScriptsQueryOptions } from "../scripts/scripts.api";

interface Props {
  type: string;
  script: string;
  onScript: (script: string) => void;
  scriptId: string;
  onScriptId: (id: string) => void;
  templateId: string;
  onTemplateId: (id: string) => void;
}

/** A shell command's script (a saved one, or typed in) and a settings command's template. */
export function SavedScriptPicker(props: Props) {
  const { t } = useTranslation();
  const offers = useOffers();
  const isShell = props.type === "shell";
  const isSettings = props.type === SETTINGS_COMMAND_TYPE;
  const scripts = useQuery({
    ...listScriptsQueryOptions("script"),
    enabled: isShell && offers("scripts.view"),
  });
  const templates = useQuery({
    ...listScriptsQueryOptions("template"),
    enabled: isSettings && offers("templates.view"),
  });
  if (isSettings)
    return (
      <TextField
        select
        label={t("commands.form.template")}
        value={props.templateId}
        onChange={(e) => props.onTemplateId(e.target.value)}
        data-testid="command-template"
        required
      >
        {(templates.data ?? []).map((row) => (
          <MenuItem key={row._id} value={row._id}>
            {row.name} · v{row.version}
          </MenuItem>
        ))}
      </TextField>
    );
  if (!isShell) return null;
  return (
    <>
      <TextField
        select
        label={t("commands.form.savedScript")}
        value={props.scriptId}
        onChange={(e) => props.onScriptId(e.target.value)}
        data-testid="command-saved-script"
      >
        <MenuItem value="">{t("commands.form.typedScript")}</MenuItem>
        {(scripts.data ?? []).map((row) => (
          <MenuItem key={row._id} value={row._id}>
            {row.name} · v{row.version}
          </MenuItem>
        ))}
      </TextField>
      {props.scriptId === "" ? (
        <TextField
          label={t("commands.form.script")}
          multiline
          minRows={3}
          value={props.script}
          onChange={(e) => props.onScript(e.target.value)}
        />
      ) : null}
    </>
  );
}

/** The dry run's text: what the (first) router gets, a saved script's or a rendered template's. */
export function RenderedText({ rendered }: { rendered: CommandDryRun["rendered"] }) {
  const { t } = useTranslation();
  if (!rendered) return null;
  return (
    <Box data-testid="dry-run-rendered">
      <Typography variant="caption" color="text.secondary">
        {rendered.ident
          ? t("commands.dryRun.renderedFor", { ident: rendered.ident })
          : t("commands.dryRun.rendered")}
      </Typography>
      <Box
        component="pre"
        sx={{
          m: 0,
          p: 1.5,
          borderRadius: 1,
          bgcolor: "action.hover",
          fontFamily: "monospace",
          fontSize: 13,
          whiteSpace: "pre-wrap",
          wordBreak: "break-word",
          maxHeight: 240,
          overflow: "auto",
        }}
      >
        {rendered.text}
      </Box>
    </Box>
  );
}
