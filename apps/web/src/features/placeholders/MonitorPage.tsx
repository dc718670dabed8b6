import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { notice } from "../../app/messages/texts";
import { PageTitle } from "../../components/PageTitle";

/** The two placeholder monitors of spec section 2, each with its one sentence. */
export function MonitorPage({ kind }: { kind: "deviceMonitor" | "passwordMonitor" }) {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle>{t(`routes.${kind}`)}</PageTitle>
      <Paper variant="outlined" sx={{ p: 4 }}>
        <Typography>{notice(kind)}</Typography>
      </Paper>
    </>
  );
}
