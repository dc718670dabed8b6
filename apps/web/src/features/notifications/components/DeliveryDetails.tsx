import type { Delivery } from "@cellfleet/contract";
import Box from "@mui/material/Box";
import Stack from "@mui/material/Stack";
import { useTheme } from "@mui/material/styles";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../../../components/formatDate";

/** What a delivery said and each of its attempts with the provider's answer. */
export function DeliveryDetails({ delivery }: { delivery: Delivery }) {
  const { t } = useTranslation();
  const isPhone = useMediaQuery(useTheme().breakpoints.down("sm"));
  return (
    <Stack spacing={2} sx={{ py: 1 }}>
      <Box
        component="pre"
        data-testid="delivery-text"
        sx={{
          m: 0,
          p: 1.5,
          borderRadius: 1,
          bgcolor: "action.hover",
          whiteSpace: "pre-wrap",
          wordBreak: "break-word",
          fontFamily: "inherit",
          fontSize: "0.875rem",
          maxHeight: 320,
          overflow: "auto",
        }}
      >
        {delivery.text}
      </Box>
      <Typography variant="subtitle2">{t("notifications.log.attempts")}</Typography>
      {isPhone ? (
        <Stack spacing={1} data-testid="delivery-attempts">
          {delivery.attempt_log.map((attempt) => (
            <Stack key={attempt.attempt} spacing={0.25}>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {`${attempt.attempt}. ${t(`notifications.log.outcomes.${attempt.outcome}`)} · ${formatDateTime(attempt.start_time)}`}
              </Typography>
              <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: "anywhere" }}>
                {attempt.status_code === null ? attempt.answer : `${attempt.status_code} · ${attempt.answer}`}
              </Typography>
            </Stack>
          ))}
        </Stack>
      ) : (
        <Box sx={{ overflowX: "auto" }}>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>#</TableCell>
                <TableCell>{t("notifications.log.outcome")}</TableCell>
                <TableCell>{t("notifications.log.started")}</TableCell>
                <TableCell>{t("notifications.log.answer")}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {delivery.attempt_log.map((attempt) => (
                <TableRow key={attempt.attempt}>
                  <TableCell>{attempt.attempt}</TableCell>
                  <TableCell sx={{ whiteSpace: "nowrap" }}>
                    {t(`notifications.log.outcomes.${attempt.outcome}`)}
                  </TableCell>
                  <TableCell sx={{ whiteSpace: "nowrap" }}>{formatDateTime(attempt.start_time)}</TableCell>
                  <TableCell sx={{ wordBreak: "break-word" }}>
                    {attempt.status_code === null ? "" : `${attempt.status_code} · `}
                    {attempt.answer}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
    </Stack>
  );
}
