import type { ScheduleClass } from "@cellfleet/contract";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { formatMoment } from "../../../../app/format";
import { QueryState } from "../../../../components/QueryState";
import { scheduleRulesQueryOptions, useSetScheduleRuleActive } from "../schedules.queries";
import { RulesCardHeader } from "./RulesCardHeader";
import { describeSchedule } from "./scheduleText";

const WIDE_ONLY = { display: { xs: "none", md: "table-cell" } } as const;

/**
 * The backup or journal rules of the domain (spec section 2 settings screen): add, open, and the
 * active switch, which saves at once.
 */
export function ScheduleRulesCard({ type }: { type: ScheduleClass }) {
  const { t, i18n } = useTranslation();
  const query = useQuery(scheduleRulesQueryOptions());
  const toggle = useSetScheduleRuleActive();
  return (
    <Card data-testid={`schedule-rules-${type}`}>
      <RulesCardHeader
        title={t(`schedules.title.${type}`)}
        hint={t(`schedules.hint.${type}`)}
        action={
          <Button
            component={RouterLink}
            to={`/${type}/task/new`}
            variant="outlined"
            data-testid={`schedule-add-${type}`}
            sx={{ flexShrink: 0 }}
          >
            {t("schedules.add")}
          </Button>
        }
      />
      <QueryState
        query={query}
        isInset
        isEmpty={(rules) => rules.every((rule) => rule.type !== type)}
        emptyText={t("schedules.empty")}
      >
        {(rules) => (
          <TableContainer>
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell>{t("schedules.columns.name")}</TableCell>
                  <TableCell>{t("schedules.columns.when")}</TableCell>
                  <TableCell sx={WIDE_ONLY}>{t("schedules.columns.routers")}</TableCell>
                  <TableCell sx={WIDE_ONLY}>{t("schedules.columns.copies")}</TableCell>
                  <TableCell sx={WIDE_ONLY}>{t("schedules.columns.next")}</TableCell>
                  <TableCell align="right">{t("schedules.columns.active")}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rules
                  .filter((rule) => rule.type === type)
                  .map((rule) => {
                    const isPending = toggle.isPending && toggle.variables?.id === rule._id;
                    return (
                      <TableRow key={rule._id} data-testid={`schedule-rule-${rule._id}`}>
                        <TableCell>
                          <Link component={RouterLink} to={`/${type}/task/${rule._id}`}>
                            {rule.name}
                          </Link>
                        </TableCell>
                        <TableCell>{describeSchedule(rule, t, i18n.language)}</TableCell>
                        <TableCell sx={WIDE_ONLY}>
                          {rule.active_for === "all" ? (
                            t("schedules.activeFor.all")
                          ) : (
                            <Stack direction="row" spacing={0.5} sx={{ flexWrap: "wrap", rowGap: 0.5 }}>
                              {rule.search.filterTags.map((tag) => (
                                <Chip key={tag} label={tag} size="small" />
                              ))}
                            </Stack>
                          )}
                        </TableCell>
                        <TableCell sx={WIDE_ONLY}>{rule.copies}</TableCell>
                        <TableCell sx={WIDE_ONLY}>
                          {rule.next_run === null ? "—" : formatMoment(rule.next_run, i18n.language)}
                        </TableCell>
                        <TableCell align="right" sx={{ py: 0 }}>
                          <Switch
                            checked={isPending ? Boolean(toggle.variables?.active) : rule.active}
                            disabled={isPending}
                            onChange={(event) =>
                              toggle.mutate({ type, id: rule._id, active: event.target.checked })
                            }
                            slotProps={{
                              input: { "aria-label": `${t("schedules.columns.active")}: ${rule.name}` },
                            }}
                          />
                        </TableCell>
                      </TableRow>
                    );
                  })}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </QueryState>
    </Card>
  );
}
