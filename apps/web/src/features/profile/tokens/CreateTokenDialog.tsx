import {
  API_TOKEN_PREFIX,
  type CreatedApiToken,
  isPermissionAction,
  isSavingAction,
} from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControlLabel from "@mui/material/FormControlLabel";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { CopyButton } from "../../../components/CopyButton";
import { TagsInput } from "../../../components/list-card";
import { actionWord } from "./actionWords";
import { useCreateToken } from "./apiTokens.queries";

const LIFETIMES = [7, 30, 90, 365] as const;
const DAY_MS = 86_400_000;

/** The actions grouped by their area (`devices.view` → devices), in the table's order. */
function groupByArea(actions: readonly string[]): [string, string[]][] {
  const groups = new Map<string, string[]>();
  for (const action of actions) {
    const area = action.split(".")[0] ?? action;
    groups.set(area, [...(groups.get(area) ?? []), action]);
  }
  return [...groups];
}

function isReading(action: string): boolean {
  return isPermissionAction(action) && !isSavingAction(action);
}

interface CreateTokenDialogProps {
  isOpen: boolean;
  /** What the person may put on a token (POST /api/tokens/options). */
  offered: readonly string[];
  onClose: () => void;
}

/**
 * A new token: its name, life, actions (a subset of the person's) and allowed networks; once made,
 * its secret is shown this one time with a copy button.
 */
export function CreateTokenDialog({ isOpen, offered, onClose }: CreateTokenDialogProps) {
  const { t } = useTranslation();
  const create = useCreateToken();
  const [name, setName] = useState("");
  const [days, setDays] = useState<number>(30);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set(offered.filter(isReading)));
  const [networks, setNetworks] = useState("");
  const [tagScope, setTagScope] = useState<string[]>([]);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const [isTouched, setTouched] = useState(false);

  const nameError = isTouched && name.trim() === "" ? t("apiTokens.nameRequired") : undefined;
  const chosenError = isTouched && chosen.size === 0 ? t("apiTokens.permissionsRequired") : undefined;

  const handleClose = () => {
    setCreated(null);
    setName("");
    setNetworks("");
    setTagScope([]);
    setTouched(false);
    create.reset();
    onClose();
  };

  const handleToggle = (action: string) => {
    const next = new Set(chosen);
    if (next.has(action)) next.delete(action);
    else next.add(action);
    setChosen(next);
  };

  const handleSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (name.trim() === "" || chosen.size === 0) return;
    create.mutate(
      {
        name: name.trim(),
        expires_at: Date.now() + days * DAY_MS,
        permissions: offered.filter((action) => chosen.has(action)),
        allowed_ips: networks
          .split(/[\s,]+/)
          .map((network) => network.trim())
          .filter(Boolean),
        tag_scope: tagScope,
      },
      { onSuccess: setCreated },
    );
  };

  if (created) {
    return (
      <Dialog open={isOpen} onClose={handleClose} fullWidth maxWidth="sm">
        <DialogTitle>{t("apiTokens.createdTitle", { name: created.item.name })}</DialogTitle>
        <DialogContent>
          <Alert severity="warning" sx={{ mb: 2 }}>
            {t("apiTokens.shownOnce")}
          </Alert>
          <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
            <Box
              component="code"
              data-testid="api-token-secret"
              sx={{ p: 1, flex: 1, bgcolor: "action.hover", borderRadius: 1, overflowWrap: "anywhere" }}
            >
              {created.token}
            </Box>
            <CopyButton text={created.token} label={t("apiTokens.copy")} />
          </Stack>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
            {t("apiTokens.howToUse", { prefix: API_TOKEN_PREFIX })}
          </Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={handleClose} variant="contained">
            {t("apiTokens.done")}
          </Button>
        </DialogActions>
      </Dialog>
    );
  }

  return (
    <Dialog open={isOpen} onClose={handleClose} fullWidth maxWidth="md">
      <Box component="form" noValidate onSubmit={handleSubmit}>
        <DialogTitle>{t("apiTokens.newTitle")}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            <TextField
              label={t("apiTokens.name")}
              value={name}
              onChange={(event) => setName(event.target.value)}
              error={Boolean(nameError)}
              helperText={nameError ?? t("apiTokens.nameHint")}
              slotProps={{ htmlInput: { maxLength: 64, "data-testid": "api-token-name" } }}
              autoFocus
            />
            <TextField
              select
              label={t("apiTokens.lifetime")}
              value={days}
              onChange={(event) => setDays(Number(event.target.value))}
            >
              {LIFETIMES.map((value) => (
                <MenuItem key={value} value={value}>
                  {t("apiTokens.days", { count: value })}
                </MenuItem>
              ))}
            </TextField>
            <Box>
              <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap", mb: 1 }}>
                <Typography variant="subtitle2" sx={{ mr: "auto" }}>
                  {t("apiTokens.permissions")}
                </Typography>
                <Button size="small" onClick={() => setChosen(new Set(offered.filter(isReading)))}>
                  {t("apiTokens.readOnly")}
                </Button>
                <Button size="small" onClick={() => setChosen(new Set(offered))}>
                  {t("apiTokens.everything")}
                </Button>
              </Stack>
              <Typography variant="body2" color={chosenError ? "error" : "text.secondary"} sx={{ mb: 1 }}>
                {chosenError ?? t("apiTokens.permissionsHint")}
              </Typography>
              <Box
                sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr", md: "1fr 1fr 1fr" } }}
              >
                {groupByArea(offered).map(([area, actions]) =>
                  actions.map((action) => (
                    <FormControlLabel
                      key={action}
                      control={
                        <Checkbox
                          size="small"
                          checked={chosen.has(action)}
                          onChange={() => handleToggle(action)}
                        />
                      }
                      label={
                        <Typography variant="body2" title={`${area}: ${action}`}>
                          {actionWord(t, action)}
                        </Typography>
                      }
                    />
                  )),
                )}
              </Box>
            </Box>
            <TextField
              label={t("apiTokens.networks")}
              value={networks}
              onChange={(event) => setNetworks(event.target.value)}
              helperText={t("apiTokens.networksHint")}
              placeholder="203.0.113.0/24, 2001:db8::/32"
            />
            <Stack spacing={0.5} data-testid="api-token-tags">
              <TagsInput
                value={tagScope}
                onChange={setTagScope}
                label={t("apiTokens.tags")}
                size="medium"
                isFullWidth
              />
              <Typography variant="caption" color="text.secondary">
                {t("apiTokens.tagsHint")}
              </Typography>
            </Stack>
            {create.isError ? <Alert severity="error">{create.error.message}</Alert> : null}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={handleClose}>{t("common.cancel")}</Button>
          <Button type="submit" variant="contained" loading={create.isPending} data-testid="api-token-create">
            {t("apiTokens.create")}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
