import type { Device, SimUsage } from "@cellfleet/contract";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import Chip from "@mui/material/Chip";
import Divider from "@mui/material/Divider";
import LinearProgress from "@mui/material/LinearProgress";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { useOffers } from "../../../app/session/useOffers";
import { formatBytes } from "../../../components/format";
import { QueryState } from "../../../components/QueryState";
import { deviceUsageQueryOptions } from "../insight.queries";
import { PlanDialog } from "./PlanDialog";
import { formatDay, UsageBars } from "./UsageBars";

function SimBlock({ sim, device, canEditPlans }: { sim: SimUsage; device: Device; canEditPlans: boolean }) {
  const { t, i18n } = useTranslation();
  const [isEditing, setIsEditing] = useState(false);
  const total = sim.period.rx + sim.period.tx;
  const lastDay = new Date(Date.parse(`${sim.period.end}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  const period = `${formatDay(sim.period.start, i18n.language)} – ${formatDay(lastDay, i18n.language)}`;
  return (
    <Stack spacing={1} sx={{ p: 2 }} data-testid="sim-usage" data-iccid={sim.iccid}>
      <Stack direction="row" sx={{ alignItems: "center", gap: 1, flexWrap: "wrap" }}>
        <Typography sx={{ fontFamily: "monospace", fontWeight: 600, wordBreak: "break-all" }}>
          {sim.iccid}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {[
            t("insight.usage.slot", { slot: sim.slot }),
            t("insight.signal.modem", { modem: sim.modem }),
            sim.operator,
          ]
            .filter(Boolean)
            .join(" · ")}
        </Typography>
        {sim.is_here ? (
          <Chip size="small" color="success" variant="outlined" label={t("insight.usage.here")} />
        ) : sim.device._id === device._id ? (
          <Chip size="small" variant="outlined" label={t("insight.usage.notNow")} />
        ) : (
          <Chip
            size="small"
            variant="outlined"
            label={
              <>
                {t("insight.usage.movedTo")}{" "}
                <Link component={RouterLink} to={`/device/${sim.device._id}`}>
                  {sim.device.ident}
                </Link>
              </>
            }
          />
        )}
      </Stack>
      <Stack direction="row" sx={{ alignItems: "center", gap: 1.5, flexWrap: "wrap" }}>
        <Typography variant="body2" data-testid="period-total">
          {sim.plan
            ? t("insight.usage.periodOfPlan", {
                period,
                used: formatBytes(total),
                plan: formatBytes(sim.plan.plan_bytes),
                percent: sim.percent,
              })
            : t("insight.usage.period", { period, used: formatBytes(total) })}
        </Typography>
        {sim.plan ? (
          <Typography variant="caption" color="text.secondary">
            {sim.plan.source === "tag"
              ? t("insight.plan.fromTag", { tag: sim.plan.tag })
              : t("insight.plan.own")}
          </Typography>
        ) : null}
        {canEditPlans ? (
          <Button size="small" onClick={() => setIsEditing(true)} data-testid="plan-edit">
            {sim.plan ? t("insight.plan.change") : t("insight.plan.set")}
          </Button>
        ) : null}
      </Stack>
      {sim.plan && sim.percent !== null ? (
        <LinearProgress
          variant="determinate"
          value={Math.min(100, sim.percent)}
          color={sim.percent >= 100 ? "error" : sim.percent >= 80 ? "warning" : "primary"}
          sx={{ height: 6, borderRadius: 3 }}
        />
      ) : null}
      <UsageBars days={sim.days} />
      {isEditing ? (
        <PlanDialog sim={sim} tags={sim.is_here ? device.tags : []} onClose={() => setIsEditing(false)} />
      ) : null}
    </Stack>
  );
}

/** The device page's data usage: each SIM by ICCID, its days and its billing period against a plan. */
export function UsageCard({ device }: { device: Device }) {
  const { t } = useTranslation();
  const offers = useOffers();
  const usage = useQuery(deviceUsageQueryOptions(device._id));
  return (
    <Card variant="outlined" data-testid="data-usage">
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, px: 2, py: 1.25 }}>
        {t("insight.usage.title")}
      </Typography>
      <Divider />
      <QueryState
        query={usage}
        isInset
        isEmpty={(data) => data.sims.length === 0}
        emptyText={t("insight.usage.empty")}
      >
        {(data) => (
          <Stack divider={<Divider flexItem />}>
            {data.sims.map((sim) => (
              <SimBlock key={sim.iccid} sim={sim} device={device} canEditPlans={offers("dataPlans.edit")} />
            ))}
          </Stack>
        )}
      </QueryState>
    </Card>
  );
}
