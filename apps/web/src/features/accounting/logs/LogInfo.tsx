import ExpandLessIcon from "@mui/icons-material/ExpandLess";
import ExpandMoreIcon from "@mui/icons-material/ExpandMore";
import Box from "@mui/material/Box";
import Collapse from "@mui/material/Collapse";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";

/** A one-line preview of an entry's info: its first keys and values. */
export function infoPreview(info: Record<string, unknown>, maxLength = 48): string {
  const text = Object.entries(info)
    .map(([key, value]) => `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(", ");
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}

/** The info of a log entry as an expandable block (the server has already hidden the secrets). */
export function LogInfo({ info }: { info: Record<string, unknown> }) {
  const { t } = useTranslation();
  const [isOpen, setOpen] = useState(false);
  if (Object.keys(info).length === 0) return <>—</>;
  return (
    <Stack sx={{ minWidth: 180, maxWidth: 360 }}>
      <Stack direction="row" sx={{ alignItems: "center" }}>
        <Typography variant="body2" noWrap sx={{ flexGrow: 1, fontFamily: "monospace", fontSize: 12 }}>
          {infoPreview(info)}
        </Typography>
        <IconButton
          size="small"
          aria-label={isOpen ? t("accounting.logs.collapse") : t("accounting.logs.expand")}
          aria-expanded={isOpen}
          onClick={() => setOpen((open) => !open)}
        >
          {isOpen ? <ExpandLessIcon fontSize="small" /> : <ExpandMoreIcon fontSize="small" />}
        </IconButton>
      </Stack>
      <Collapse in={isOpen} unmountOnExit>
        <Box
          component="pre"
          data-testid="log-info"
          sx={{ m: 0, p: 1, bgcolor: "action.hover", borderRadius: 1, fontSize: 12, overflowX: "auto" }}
        >
          {JSON.stringify(info, null, 2)}
        </Box>
      </Collapse>
    </Stack>
  );
}
