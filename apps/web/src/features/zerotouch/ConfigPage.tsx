import {
  type ZeroTouchConfig,
  ZeroTouchConfigInputSchema,
  type ZeroTouchSecretAnswer,
} from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import FormControlLabel from "@mui/material/FormControlLabel";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { apiErrorText } from "../../app/api/handleTransportError";
import { useOffers } from "../../app/session/useOffers";
import { DeleteButton } from "../../components/DeleteButton";
import { TagsInput } from "../../components/list-card";
import { PageTitle } from "../../components/PageTitle";
import { QueryState } from "../../components/QueryState";
import { listScriptsQueryOptions } from "../commands/scripts/scripts.api";
import { tagFrequenciesQueryOptions } from "../devices/devices.queries";
import { rangesToText, textToList, textToRanges } from "./ranges";
import { SecretDialog } from "./SecretDialog";
import {
  configQueryOptions,
  createConfig,
  deleteConfig,
  renewSecret,
  saveConfig,
  zeroTouchKeys,
} from "./zerotouch.api";

/** /zerotouch/config/new and /zerotouch/config/{id}: a configuration's form. */
export function ZeroTouchConfigPage() {
  const { t } = useTranslation();
  const { config_id: id = "new" } = useParams();
  const query = useQuery({ ...configQueryOptions(id), enabled: id !== "new" });
  return (
    <>
      <PageTitle>{t(id === "new" ? "zeroTouch.newTitle" : "routes.zeroTouchConfig")}</PageTitle>
      {id === "new" ? (
        <ConfigForm id={id} saved={null} />
      ) : (
        <QueryState query={query}>
          {(saved) => <ConfigForm key={saved.update_time} id={id} saved={saved} />}
        </QueryState>
      )}
    </>
  );
}

function ConfigForm({ id, saved }: { id: string; saved: ZeroTouchConfig | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const offers = useOffers();
  const queryClient = useQueryClient();
  const isReadOnly = !offers("zeroTouch.manage");
  const templates = useQuery(listScriptsQueryOptions("template"));
  const frequencies = useQuery(tagFrequenciesQueryOptions());
  const [name, setName] = useState(saved?.name ?? "");
  const [active, setActive] = useState(saved?.active ?? true);
  const [tags, setTags] = useState<string[]>(saved?.tags ?? []);
  const [templateId, setTemplateId] = useState(saved?.template?._id ?? "");
  const [models, setModels] = useState((saved?.models ?? []).join(", "));
  const [serials, setSerials] = useState(rangesToText(saved?.serial_ranges ?? []));
  const [imeis, setImeis] = useState(rangesToText(saved?.imei_ranges ?? []));
  const [secret, setSecret] = useState<ZeroTouchSecretAnswer | null>(null);
  const body = {
    name,
    active,
    tags,
    template_id: templateId === "" ? null : templateId,
    models: textToList(models),
    serial_ranges: textToRanges(serials),
    imei_ranges: textToRanges(imeis),
  };
  const parsed = ZeroTouchConfigInputSchema.safeParse(body);
  const invalid = new Set(parsed.success ? [] : parsed.error.issues.map((issue) => String(issue.path[0])));
  const done = () => void queryClient.invalidateQueries({ queryKey: zeroTouchKeys.all });
  const save = useMutation({
    mutationFn: async () =>
      id === "new" ? createConfig(body) : { config: await saveConfig(id, body), secret: "" },
    onSuccess: (answer) => {
      done();
      if (answer.secret) setSecret(answer);
    },
  });
  const renew = useMutation({ mutationFn: () => renewSecret(id), onSuccess: setSecret });
  const remove = useMutation({
    mutationFn: () => deleteConfig(id),
    onSuccess: () => {
      done();
      void navigate("/zerotouch");
    },
  });
  const closeSecret = () => {
    const created = secret;
    setSecret(null);
    if (id === "new" && created) void navigate(`/zerotouch/config/${created.config._id}`, { replace: true });
  };
  const error = save.error ?? renew.error ?? remove.error;
  return (
    <Card>
      <CardContent>
        <Stack spacing={2} sx={{ maxWidth: 880 }}>
          {saved ? (
            <Typography variant="body2" color="text.secondary" data-testid="zt-summary">
              {t("zeroTouch.summary", { keyId: saved.key_id, joined: saved.joined, author: saved.author })}
            </Typography>
          ) : null}
          <TextField
            label={t("zeroTouch.fields.name")}
            value={name}
            onChange={(e) => setName(e.target.value)}
            slotProps={{ input: { readOnly: isReadOnly }, htmlInput: { "data-testid": "zt-name" } }}
            required
          />
          <FormControlLabel
            control={
              <Switch checked={active} onChange={(e) => setActive(e.target.checked)} disabled={isReadOnly} />
            }
            label={t("zeroTouch.fields.active")}
          />
          <TagsInput
            value={tags}
            onChange={setTags}
            frequencies={frequencies.data}
            label={t("zeroTouch.fields.tags")}
            limitTags={6}
            isFullWidth
            isDisabled={isReadOnly}
          />
          <TextField
            select
            label={t("zeroTouch.fields.template")}
            value={templateId}
            onChange={(e) => setTemplateId(e.target.value)}
            helperText={t("zeroTouch.help.template")}
            disabled={isReadOnly}
          >
            <MenuItem value="">{t("zeroTouch.noTemplate")}</MenuItem>
            {(templates.data ?? []).map((template) => (
              <MenuItem key={template._id} value={template._id}>
                {template.name}
              </MenuItem>
            ))}
          </TextField>
          <Typography variant="subtitle2">{t("zeroTouch.matchTitle")}</Typography>
          <Typography variant="body2" color="text.secondary">
            {t("zeroTouch.help.match")}
          </Typography>
          <TextField
            label={t("zeroTouch.fields.models")}
            value={models}
            onChange={(e) => setModels(e.target.value)}
            helperText={t("zeroTouch.help.models")}
            error={invalid.has("models")}
            slotProps={{ input: { readOnly: isReadOnly } }}
          />
          <Stack direction={{ xs: "column", md: "row" }} spacing={2}>
            <TextField
              label={t("zeroTouch.fields.serialRanges")}
              value={serials}
              onChange={(e) => setSerials(e.target.value)}
              helperText={t("zeroTouch.help.ranges", { example: "1100000 1199999" })}
              error={invalid.has("serial_ranges")}
              multiline
              minRows={3}
              fullWidth
              slotProps={{ input: { readOnly: isReadOnly, sx: { fontFamily: "monospace" } } }}
            />
            <TextField
              label={t("zeroTouch.fields.imeiRanges")}
              value={imeis}
              onChange={(e) => setImeis(e.target.value)}
              helperText={t("zeroTouch.help.ranges", { example: "356938035643800 356938035643899" })}
              error={invalid.has("imei_ranges")}
              multiline
              minRows={3}
              fullWidth
              slotProps={{ input: { readOnly: isReadOnly, sx: { fontFamily: "monospace" } } }}
            />
          </Stack>
          {error ? <Alert severity="error">{apiErrorText(error)}</Alert> : null}
          {save.isSuccess && id !== "new" ? <Alert severity="success">{t("zeroTouch.saved")}</Alert> : null}
          {isReadOnly ? null : (
            <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap", rowGap: 1 }}>
              <Button
                variant="contained"
                disabled={!parsed.success || save.isPending}
                onClick={() => save.mutate()}
                data-testid="zt-save"
              >
                {t(id === "new" ? "zeroTouch.create" : "zeroTouch.save")}
              </Button>
              {saved ? (
                <Button
                  variant="outlined"
                  disabled={renew.isPending}
                  onClick={() => renew.mutate()}
                  data-testid="zt-renew"
                >
                  {t("zeroTouch.renew")}
                </Button>
              ) : null}
              {saved ? <DeleteButton onDelete={() => remove.mutate()} hasText /> : null}
            </Stack>
          )}
        </Stack>
      </CardContent>
      <SecretDialog answer={secret} onClose={closeSecret} />
    </Card>
  );
}
