import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { CopyButton } from "../../components/CopyButton";

/** The recovery codes, shown once right after they were made (ADR 039). */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert severity="warning" icon={false} data-testid="recovery-codes">
      <Stack spacing={1.5}>
        <Typography variant="subtitle2">{t("secondFactor.codesTitle")}</Typography>
        <Typography variant="body2">{t("secondFactor.codesNotice")}</Typography>
        <Box
          component="ol"
          sx={{
            m: 0,
            pl: 3,
            display: "grid",
            gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" },
            columnGap: 4,
            fontFamily: "monospace",
            fontSize: "1rem",
          }}
        >
          {codes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </Box>
        <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
          <CopyButton text={codes.join("\n")} label={t("secondFactor.codesTitle")} />
          <Button variant="contained" onClick={onDone}>
            {t("secondFactor.codesSaved")}
          </Button>
        </Stack>
      </Stack>
    </Alert>
  );
}
