import { LOCALES, type Locale, parseEmailList, validateEmailList } from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { tagFrequenciesQueryOptions } from "../../../devices/devices.queries";
import { useCreateUptimeMailRule } from "../uptimeMail.queries";

/** A new monthly uptime mail: name, recipients, which routers, and the language of the PDF. */
export function UptimeMailDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const create = useCreateUptimeMailRule();
  const tags = useQuery(tagFrequenciesQueryOptions());
  const tagNames = Object.keys(tags.data ?? {}).sort();
  const [name, setName] = useState("");
  const [recipients, setRecipients] = useState("");
  const [scope, setScope] = useState<"domain" | "tag">("domain");
  const [tag, setTag] = useState("");
  const [language, setLanguage] = useState<Locale>(i18n.language === "en" ? "en" : "ru");
  const [isTouched, setTouched] = useState(false);

  const addresses = parseEmailList(recipients);
  const nameError = isTouched && name.trim() === "";
  const recipientsError = isTouched && (addresses.length === 0 || validateEmailList(recipients) !== null);
  const tagError = isTouched && scope === "tag" && tag === "";

  const handleClose = () => {
    setName("");
    setRecipients("");
    setScope("domain");
    setTag("");
    setTouched(false);
    create.reset();
    onClose();
  };

  const handleSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (name.trim() === "" || addresses.length === 0 || validateEmailList(recipients) !== null) return;
    if (scope === "tag" && tag === "") return;
    create.mutate(
      { name: name.trim(), recipients: addresses, scope, ...(scope === "tag" ? { tag } : {}), language },
      { onSuccess: handleClose },
    );
  };

  return (
    <Dialog open={isOpen} onClose={handleClose} fullWidth maxWidth="sm">
      <Box component="form" noValidate onSubmit={handleSubmit} data-testid="uptime-mail-dialog">
        <DialogTitle>{t("schedules.uptimeMail.newTitle")}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {create.error ? <Alert severity="error">{create.error.message}</Alert> : null}
            <TextField
              label={t("schedules.columns.name")}
              value={name}
              onChange={(event) => setName(event.target.value)}
              error={nameError}
              helperText={nameError ? t("schedules.uptimeMail.nameRequired") : undefined}
              required
              slotProps={{ htmlInput: { "data-testid": "uptime-mail-name" } }}
            />
            <TextField
              label={t("schedules.uptimeMail.recipients")}
              value={recipients}
              onChange={(event) => setRecipients(event.target.value)}
              error={recipientsError}
              helperText={
                recipientsError
                  ? t("schedules.uptimeMail.recipientsInvalid")
                  : t("schedules.uptimeMail.recipientsHint")
              }
              required
              slotProps={{ htmlInput: { "data-testid": "uptime-mail-recipients" } }}
            />
            <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
              <TextField
                select
                label={t("schedules.uptimeMail.scope")}
                value={scope}
                onChange={(event) => setScope(event.target.value as "domain" | "tag")}
                sx={{ flex: 1 }}
              >
                <MenuItem value="domain">{t("schedules.activeFor.all")}</MenuItem>
                <MenuItem value="tag" disabled={tagNames.length === 0}>
                  {t("schedules.uptimeMail.withTag")}
                </MenuItem>
              </TextField>
              {scope === "tag" ? (
                <TextField
                  select
                  label={t("schedules.uptimeMail.tag")}
                  value={tag}
                  onChange={(event) => setTag(event.target.value)}
                  error={tagError}
                  sx={{ flex: 1 }}
                  slotProps={{ htmlInput: { "data-testid": "uptime-mail-tag" } }}
                >
                  {tagNames.map((name) => (
                    <MenuItem key={name} value={name}>
                      {name}
                    </MenuItem>
                  ))}
                </TextField>
              ) : null}
              <TextField
                select
                label={t("schedules.uptimeMail.language")}
                value={language}
                onChange={(event) => setLanguage(event.target.value as Locale)}
                sx={{ flex: 1 }}
              >
                {LOCALES.map((locale) => (
                  <MenuItem key={locale} value={locale}>
                    {t(`schedules.uptimeMail.languages.${locale}`)}
                  </MenuItem>
                ))}
              </TextField>
            </Stack>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={handleClose}>{t("schedules.uptimeMail.cancel")}</Button>
          <Button
            type="submit"
            variant="contained"
            disabled={create.isPending}
            data-testid="uptime-mail-save"
          >
            {t("schedules.uptimeMail.save")}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
