import type { RolloutDryRun } from "@cellfleet/contract";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";

/**
 * The domains root offers a rollout to (ADR 031), from the dry run: each with its routers and
 * whether it accepts by itself or its admin is asked. Every domain is offered unless unticked.
 */
export function RolloutDomainChoice({
  domains,
  excluded,
  onToggle,
}: {
  domains: RolloutDryRun["domains"];
  excluded: ReadonlySet<string>;
  onToggle: (domainId: string) => void;
}) {
  const { t } = useTranslation();
  if (domains.length === 0) return null;
  return (
    <Stack spacing={0.5} data-testid="rollout-domain-choice">
      <Typography variant="subtitle2">{t("software.rollout.domains.offerTo")}</Typography>
      <Typography variant="body2" color="text.secondary">
        {t("software.rollout.domains.offerHint")}
      </Typography>
      {domains.map((domain) => (
        <FormControlLabel
          key={domain._id}
          control={
            <Checkbox
              size="small"
              checked={!excluded.has(domain._id)}
              onChange={() => onToggle(domain._id)}
              slotProps={{ input: { "aria-label": domain.name } }}
            />
          }
          label={t(
            domain.auto_accept ? "software.rollout.domains.choiceAuto" : "software.rollout.domains.choice",
            {
              name: domain.name,
              count: domain.routers,
            },
          )}
        />
      ))}
    </Stack>
  );
}
