import { type DashboardTotals, DEVICE_STATUSES, type DeviceStatus } from "@cellfleet/contract";
import Card from "@mui/material/Card";
import CardActionArea from "@mui/material/CardActionArea";
import Grid from "@mui/material/Grid";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { useFormatNumber } from "../../../app/format";
import { STATUS_COLORS } from "./DeviceLabels";

interface StatusTotalsProps {
  totals: DashboardTotals | undefined;
  /** Statuses the list is filtered by; their cards are outlined. */
  selected: readonly string[];
  onToggle: (status: DeviceStatus) => void;
}

const PALETTE: Record<(typeof STATUS_COLORS)[DeviceStatus], string> = {
  error: "error.main",
  warning: "warning.main",
  default: "text.secondary",
  success: "success.main",
};

/** Device totals by status (POST /api/dashboard/); a card click filters the list by that status. */
export function StatusTotals({ totals, selected, onToggle }: StatusTotalsProps) {
  const { t } = useTranslation();
  const formatNumber = useFormatNumber();
  return (
    <Grid container spacing={2} sx={{ mb: 2 }} data-testid="status-totals">
      {DEVICE_STATUSES.map((status) => (
        <Grid key={status} size={{ xs: 6, md: 3 }}>
          <Card
            variant="outlined"
            sx={{
              borderColor: selected.includes(status) ? PALETTE[STATUS_COLORS[status]] : undefined,
              borderWidth: 2,
            }}
          >
            <CardActionArea
              onClick={() => onToggle(status)}
              sx={{ px: 2, py: 1.5 }}
              data-testid={`total-${status}`}
            >
              <Typography variant="body2" color="text.secondary">
                {t(`fleet.status.${status}`)}
              </Typography>
              <Typography
                variant="h4"
                component="div"
                sx={{ color: PALETTE[STATUS_COLORS[status]], fontWeight: 600 }}
              >
                {totals ? formatNumber(totals[status]) : <Skeleton width={48} />}
              </Typography>
            </CardActionArea>
          </Card>
        </Grid>
      ))}
    </Grid>
  );
}
