import {
  COMMAND_TYPES_WITH_DOWNLOAD,
  type CommandDryRun,
  type CommandType,
  type CreateCommand,
  DANGEROUS_COMMAND_TYPES,
  type FileType,
  needsConfirmation,
  SETTINGS_COMMAND_TYPE,
} from "@cellfleet/contract";
import EditIcon from "@mui/icons-material/Edit";
import Alert from "@mui/material/Alert";
import Autocomplete from "@mui/material/Autocomplete";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import FormControlLabel from "@mui/material/FormControlLabel";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { apiErrorText } from "../../app/api/handleTransportError";
import { useOffers } from "../../app/session/useOffers";
import { ConfirmDialog, type ConfirmQuestion } from "../../components/ConfirmDialog";
import { TagsInput } from "../../components/list-card";
import { PageTitle } from "../../components/PageTitle";
import { QueryState } from "../../components/QueryState";
import { deviceListQueryOptions, tagFrequenciesQueryOptions } from "../devices/devices.queries";
import { filesListQueryOptions } from "../files/files.queries";
import { dryRunCommand } from "./commands.api";
import { commandTypesQueryOptions, useCreateCommand } from "./commands.queries";
import { typeChips, typeLabel } from "./commandTypes";
import { RenderedText, SavedScriptPicker } from "./components/SavedScriptPicker";

const FILE_KIND: Partial<Record<CommandType, FileType>> = {
  fw_update: "firmware",
  pkg_install: "package",
  download: "file",
  restore: "file",
};

/** A datetime-local value as ms since the epoch, or null. */
function toMs(value: string): number | null {
  return value === "" ? null : new Date(value).getTime();
}

/** /commands/new: type (quick list first), targets by routers, tags or all, a dry run, then send. */
export function NewCommandPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const offers = useOffers();
  const types = useQuery(commandTypesQueryOptions());
  const tags = useQuery(tagFrequenciesQueryOptions());
  const [search, setSearch] = useState("");
  const devices = useQuery(deviceListQueryOptions({ search: search || undefined, size: 50 }));
  const [type, setType] = useState("");
  const [script, setScript] = useState("");
  const [scriptId, setScriptId] = useState("");
  const [templateId, setTemplateId] = useState("");
  const [fileId, setFileId] = useState("");
  const [deviceIds, setDeviceIds] = useState<Array<{ _id: string; ident: string }>>([]);
  const [tagList, setTagList] = useState<string[]>([]);
  const [isAll, setIsAll] = useState(false);
  const [delayedUntil, setDelayedUntil] = useState("");
  const [runUntil, setRunUntil] = useState("");
  const fileKind = FILE_KIND[type as CommandType];
  const files = useQuery({
    ...filesListQueryOptions({ file_type: fileKind ?? "file" }),
    enabled: fileKind !== undefined,
  });
  const create = useCreateCommand();
  const dryRun = useMutation({ mutationFn: dryRunCommand });
  const body: CreateCommand = {
    type,
    args: type === "shell" && scriptId === "" ? { script } : {},
    ...(type === "shell" && scriptId !== "" ? { script_id: scriptId } : {}),
    ...(type === SETTINGS_COMMAND_TYPE && templateId !== "" ? { template_id: templateId } : {}),
    ...(COMMAND_TYPES_WITH_DOWNLOAD.includes(type as CommandType) && fileId ? { file_id: fileId } : {}),
    targets: { devices: deviceIds.map((device) => device._id), tags: tagList, all: isAll },
    delayed_until: toMs(delayedUntil),
    run_until: toMs(runUntil),
  };
  const result: CommandDryRun | undefined = dryRun.data;
  const [question, setQuestion] = useState<ConfirmQuestion | null>(null);
  const send = () =>
    create.mutate(body, {
      onSuccess: (command) => void navigate(`/command/${command._id}`),
      onSettled: () => setQuestion(null),
    });
  // A wide or dangerous command asks once, with the dry run's figures (issue 27).
  const handleSend = async () => {
    if (!needsConfirmation(type, body.targets ?? {})) return send();
    const figures = await dryRun.mutateAsync(body).catch(() => null);
    if (!figures) return;
    const isDangerous = DANGEROUS_COMMAND_TYPES.includes(type);
    const label = typeLabel(t, type);
    setQuestion({
      title: t("commands.confirm.sendTitle", { type: label }),
      text: [
        t("commands.confirm.routers", { count: figures.targets, offline: figures.offline }),
        isDangerous ? t("commands.confirm.irreversible", { type: label }) : null,
      ]
        .filter(Boolean)
        .join(" "),
      confirm: t("commands.form.send"),
      isDangerous,
    });
  };

  return (
    <>
      <PageTitle>{t("routes.commandNew")}</PageTitle>
      <QueryState query={types}>
        {(answer) => (
          <Card>
            <CardContent>
              <Stack spacing={2} sx={{ maxWidth: 720 }}>
                <Typography variant="subtitle2">{t("commands.form.quick")}</Typography>
                <Stack direction="row" sx={{ flexWrap: "wrap", gap: 1 }} data-testid="quick-list">
                  {typeChips(answer.quick, answer.types, offers("commandTypes.manage")).quick.map((name) => (
                    <Chip
                      key={name}
                      label={typeLabel(t, name)}
                      color={type === name ? "primary" : "default"}
                      onClick={() => setType(name)}
                    />
                  ))}
                </Stack>
                {offers("commandTypes.manage") ? (
                  <Stack direction="row" sx={{ flexWrap: "wrap", gap: 1 }} data-testid="custom-types">
                    {typeChips(answer.quick, answer.types, true).custom.map((option) => (
                      <Chip
                        key={option._id}
                        label={option.type}
                        variant={type === option.type ? "filled" : "outlined"}
                        color={type === option.type ? "primary" : "default"}
                        onClick={() => setType(option.type)}
                        deleteIcon={
                          <EditIcon aria-label={t("commands.userType.edit", { type: option.type })} />
                        }
                        onDelete={() => void navigate(`/user-command/${option._id}`)}
                      />
                    ))}
                    <Button
                      size="small"
                      onClick={() => void navigate("/user-command/new")}
                      data-testid="add-custom-type"
                    >
                      {t("commands.userType.add")}
                    </Button>
                  </Stack>
                ) : null}
                <TextField
                  select
                  label={t("commands.columns.type")}
                  value={type}
                  onChange={(e) => setType(e.target.value)}
                  data-testid="command-type-select"
                >
                  {answer.types.map((option) => (
                    <MenuItem key={option._id} value={option.type}>
                      {typeLabel(t, option.type)}
                    </MenuItem>
                  ))}
                </TextField>
                <SavedScriptPicker
                  type={type}
                  script={script}
                  onScript={setScript}
                  scriptId={scriptId}
                  onScriptId={setScriptId}
                  templateId={templateId}
                  onTemplateId={setTemplateId}
                />
                {fileKind ? (
                  <TextField
                    select
                    label={t("commands.form.file")}
                    value={fileId}
                    onChange={(e) => setFileId(e.target.value)}
                  >
                    {(files.data ?? []).map((file) => (
                      <MenuItem key={file._id} value={file._id}>
                        {file.filename}
                      </MenuItem>
                    ))}
                  </TextField>
                ) : null}
                <Typography variant="subtitle2">{t("commands.form.targets")}</Typography>
                <FormControlLabel
                  control={<Switch checked={isAll} onChange={(e) => setIsAll(e.target.checked)} />}
                  label={t("commands.form.all")}
                />
                {isAll ? null : (
                  <>
                    <Autocomplete
                      multiple
                      options={(devices.data?.rows ?? []).map((device) => ({
                        _id: device._id,
                        ident: device.ident,
                      }))}
                      value={deviceIds}
                      getOptionLabel={(option) => option.ident}
                      isOptionEqualToValue={(a, b) => a._id === b._id}
                      onChange={(_event, value) => setDeviceIds(value)}
                      onInputChange={(_event, value) => setSearch(value.replace(/[^\p{L}\p{N}_\-@=]/gu, ""))}
                      renderInput={(params) => <TextField {...params} label={t("commands.form.devices")} />}
                      data-testid="target-devices"
                    />
                    <TagsInput
                      value={tagList}
                      onChange={setTagList}
                      frequencies={tags.data ?? {}}
                      label={t("commands.form.tags")}
                      isFullWidth
                    />
                  </>
                )}
                <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
                  <TextField
                    type="datetime-local"
                    label={t("commands.form.delayedUntil")}
                    value={delayedUntil}
                    onChange={(e) => setDelayedUntil(e.target.value)}
                    slotProps={{ inputLabel: { shrink: true } }}
                    fullWidth
                  />
                  <TextField
                    type="datetime-local"
                    label={t("commands.form.runUntil")}
                    value={runUntil}
                    onChange={(e) => setRunUntil(e.target.value)}
                    slotProps={{ inputLabel: { shrink: true } }}
                    fullWidth
                  />
                </Stack>
                {dryRun.isError ? <Alert severity="error">{apiErrorText(dryRun.error)}</Alert> : null}
                {create.isError ? <Alert severity="error">{apiErrorText(create.error)}</Alert> : null}
                {result ? (
                  <Alert severity={result.needs_approval ? "warning" : "info"} data-testid="dry-run">
                    {t("commands.dryRun.targets", { count: result.targets })}{" "}
                    {t("commands.dryRun.offline", { count: result.offline })}{" "}
                    {result.unsupported > 0
                      ? `${t("commands.dryRun.unsupported", { count: result.unsupported })} `
                      : null}
                    {result.needs_approval
                      ? t("commands.dryRun.approval", {
                          who: result.approvers.map((kind) => t(`commands.approvers.${kind}`)).join(", "),
                        })
                      : t("commands.dryRun.noApproval")}
                  </Alert>
                ) : null}
                {result ? <RenderedText rendered={result.rendered} /> : null}
                <Stack direction="row" spacing={1}>
                  <Button
                    variant="outlined"
                    onClick={() => dryRun.mutate(body)}
                    disabled={dryRun.isPending}
                    data-testid="dry-run-button"
                  >
                    {t("commands.form.dryRun")}
                  </Button>
                  <Button
                    variant="contained"
                    disabled={create.isPending}
                    onClick={() => void handleSend()}
                    data-testid="send-command"
                  >
                    {t("commands.form.send")}
                  </Button>
                </Stack>
              </Stack>
              <ConfirmDialog
                question={question}
                onConfirm={send}
                onClose={() => setQuestion(null)}
                isBusy={create.isPending}
              />
            </CardContent>
          </Card>
        )}
      </QueryState>
    </>
  );
}
