import type { DeviceCollect } from "@cellfleet/contract";
import Card from "@mui/material/Card";
import Chip from "@mui/material/Chip";
import Divider from "@mui/material/Divider";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { RelativeTime } from "../../../components/labels";

interface CollectSectionProps {
  title: string;
  collect: DeviceCollect | undefined;
  now: number;
  /** Rendered only when the collect holds readable data. */
  children: ReactNode;
  testId: string;
  /** False when the stored report does not match the protocol schema (an agent newer than us). */
  isReadable: boolean;
}

/**
 * One section of the device page. Data older than the domain's warning minutes is marked stale
 * (spec section 4) with how long ago it came; a type the router never reported says so.
 */
export function CollectSection({ title, collect, now, children, testId, isReadable }: CollectSectionProps) {
  const { t } = useTranslation();
  const hasData = collect?.create_time != null && collect.data != null;
  return (
    <Card variant="outlined" data-testid={testId}>
      <Stack direction="row" sx={{ alignItems: "center", gap: 1, px: 2, py: 1.25, flexWrap: "wrap" }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, flexGrow: 1 }}>
          {title}
        </Typography>
        {hasData && collect?.create_time != null ? (
          collect.is_fresh ? (
            <Typography variant="caption" color="text.secondary">
              <RelativeTime time={collect.create_time} now={now} />
            </Typography>
          ) : (
            <Chip
              size="small"
              color="warning"
              variant="outlined"
              data-testid="stale-marker"
              label={
                <>
                  {t("fleet.device.stale")} · <RelativeTime time={collect.create_time} now={now} />
                </>
              }
            />
          )
        ) : null}
      </Stack>
      <Divider />
      {hasData && !isReadable ? (
        <Typography color="text.secondary" sx={{ p: 2 }}>
          {t("fleet.device.unreadable")}
        </Typography>
      ) : hasData ? (
        children
      ) : (
        <Typography color="text.secondary" sx={{ p: 2 }}>
          {t("fleet.device.notReported")}
        </Typography>
      )}
    </Card>
  );
}
