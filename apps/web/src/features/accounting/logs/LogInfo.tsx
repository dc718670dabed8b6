import ExpandLessIcon from "@mui/icons-material/ExpandLess";
import ExpandMoreIcon from "@mui/icons-material/ExpandMore";
import Box from "@mui/material/Box";
import Collapse from "@mui/material/Collapse";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { Fragment, useState } from "react";
import { useTranslation } from "react-i18next";

/** A value of an entry's info as text: strings as they are, lists joined, the rest as JSON. */
export function valueText(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every((item) => typeof item !== "object" || item === null))
    return value.map(String).join(", ");
  return JSON.stringify(value, null, 1);
}

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
          component="dl"
          data-testid="log-info"
          aria-label={t("accounting.logs.details")}
          sx={{
            m: 0,
            p: 1,
            bgcolor: "action.hover",
            borderRadius: 1,
            fontSize: 12,
            display: "grid",
            gridTemplateColumns: "max-content 1fr",
            columnGap: 1.5,
            rowGap: 0.25,
            overflowWrap: "anywhere",
          }}
        >
          {Object.entries(info).map(([key, value]) => (
            <Fragment key={key}>
              <Box component="dt" sx={{ color: "text.secondary" }}>
                {key}
              </Box>
              <Box component="dd" sx={{ m: 0, whiteSpace: "pre-wrap" }}>
                {valueText(value)}
              </Box>
            </Fragment>
          ))}
        </Box>
      </Collapse>
    </Stack>
  );
}
