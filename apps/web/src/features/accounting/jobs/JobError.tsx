import ExpandLessIcon from "@mui/icons-material/ExpandLess";
import ExpandMoreIcon from "@mui/icons-material/ExpandMore";
import Box from "@mui/material/Box";
import Collapse from "@mui/material/Collapse";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";

/** A job's last error: one truncated line (the full text on hover) that opens into the whole text. */
export function JobError({ text }: { text: string | null }) {
  const { t } = useTranslation();
  const [isOpen, setOpen] = useState(false);
  if (!text) return <>—</>;
  return (
    <Stack sx={{ minWidth: 140, maxWidth: 260 }}>
      <Stack direction="row" sx={{ alignItems: "flex-start" }}>
        <Typography
          variant="body2"
          title={text}
          data-testid="job-error"
          sx={{
            flexGrow: 1,
            fontFamily: "monospace",
            fontSize: 12,
            wordBreak: "break-word",
            // Two lines say what failed; the rest is on hover and behind the expander.
            display: "-webkit-box",
            WebkitLineClamp: 2,
            WebkitBoxOrient: "vertical",
            overflow: "hidden",
          }}
        >
          {text}
        </Typography>
        <IconButton
          size="small"
          aria-label={isOpen ? t("accounting.jobs.collapse") : t("accounting.jobs.expand")}
          aria-expanded={isOpen}
          onClick={() => setOpen((open) => !open)}
        >
          {isOpen ? <ExpandLessIcon fontSize="small" /> : <ExpandMoreIcon fontSize="small" />}
        </IconButton>
      </Stack>
      <Collapse in={isOpen} unmountOnExit>
        <Box
          component="pre"
          data-testid="job-error-full"
          sx={{
            m: 0,
            p: 1,
            bgcolor: "action.hover",
            borderRadius: 1,
            fontSize: 12,
            whiteSpace: "pre-wrap",
            wordBreak: "break-word",
          }}
        >
          {text}
        </Box>
      </Collapse>
    </Stack>
  );
}
