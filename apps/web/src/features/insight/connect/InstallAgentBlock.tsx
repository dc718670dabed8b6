import TerminalIcon from "@mui/icons-material/Terminal";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { apiErrorText } from "../../../app/api/handleTransportError";
import { formatClock } from "../../../app/format";
import { useOffers } from "../../../app/session/useOffers";
import { CopyButton } from "../../../components/CopyButton";
import { useNewInstallLink } from "../insight.queries";

const commandBox = {
  m: 0,
  p: 1.5,
  borderRadius: 1,
  bgcolor: "action.hover",
  fontFamily: "monospace",
  fontSize: 12,
  whiteSpace: "pre-wrap",
  wordBreak: "break-all",
} as const;

/**
 * The agent's one-line install (issue 25, ADR 034): a line to paste into an OpenWrt router's shell
 * that installs the agent this console serves, with this router's ident and key, and starts it. The
 * line's link serves once, for minutes; only those who may give the router a key may make it, and
 * the page never shows the key itself.
 */
export function InstallAgentBlock({ deviceId }: { deviceId: string }) {
  const { t, i18n } = useTranslation();
  const offers = useOffers();
  const make = useNewInstallLink(deviceId);
  const link = make.data;
  return (
    <Box
      data-testid="install-agent"
      sx={{ border: 1, borderColor: "divider", borderRadius: 1, p: { xs: 1.5, sm: 2 } }}
    >
      <Stack direction="row" sx={{ alignItems: "center", gap: 1, flexWrap: "wrap" }}>
        <Stack direction="row" sx={{ alignItems: "center", gap: 1, flex: "1 1 240px", minWidth: 0 }}>
          <TerminalIcon fontSize="small" color="primary" />
          <Typography variant="subtitle2" component="h3" sx={{ fontWeight: 600 }}>
            {t("insight.install.title")}
          </Typography>
        </Stack>
        {offers("devices.edit") ? (
          <Button
            size="small"
            variant={link ? "outlined" : "contained"}
            onClick={() => make.mutate()}
            disabled={make.isPending}
            data-testid="make-install-line"
          >
            {link ? t("insight.install.again") : t("insight.install.make")}
          </Button>
        ) : null}
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
        {t("insight.install.intro")}
      </Typography>
      {offers("devices.edit") ? null : (
        <Typography variant="body2" sx={{ mt: 1 }} data-testid="install-not-allowed">
          {t("insight.install.notAllowed")}
        </Typography>
      )}
      {make.isError ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          {apiErrorText(make.error)}
        </Alert>
      ) : null}
      {link ? (
        <Stack spacing={1} sx={{ mt: 1 }}>
          <Stack direction="row" sx={{ alignItems: "flex-start", gap: 0.5 }}>
            <Box
              component="pre"
              sx={{ ...commandBox, flexGrow: 1, minWidth: 0 }}
              data-testid="install-command"
            >
              {link.command}
            </Box>
            <CopyButton text={link.command} label={t("insight.install.copy")} testId="copy-install-command" />
          </Stack>
          <Typography variant="body2" color="text.secondary" data-testid="install-expires">
            {t("insight.install.once", { time: formatClock(link.expires_at, Date.now(), i18n.language) })}
          </Typography>
          {link.is_key_made ? (
            <Alert severity="info" data-testid="install-key-made">
              {t("insight.install.keyMade")}
            </Alert>
          ) : null}
        </Stack>
      ) : null}
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {t("insight.install.firstboot")}
      </Typography>
    </Box>
  );
}
