import DeleteIcon from "@mui/icons-material/Delete";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import Chip from "@mui/material/Chip";
import IconButton from "@mui/material/IconButton";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { formatMoment } from "../../../../app/format";
import { QueryState } from "../../../../components/QueryState";
import { uptimeMailRulesQueryOptions, useDeleteUptimeMailRule } from "../uptimeMail.queries";
import { RulesCardHeader } from "./RulesCardHeader";
import { UptimeMailDialog } from "./UptimeMailDialog";

const WIDE_ONLY = { display: { xs: "none", md: "table-cell" } } as const;

/**
 * The monthly uptime mails (issue 31, ADR 044) beside the backup and journal rules: last month's PDF
 * report mailed on the 1st to the rule's recipients. Admins add and delete them.
 */
export function UptimeMailRulesCard({ mayManage }: { mayManage: boolean }) {
  const { t, i18n } = useTranslation();
  const query = useQuery(uptimeMailRulesQueryOptions());
  const remove = useDeleteUptimeMailRule();
  const [isAdding, setAdding] = useState(false);
  return (
    <Card data-testid="uptime-mail-rules">
      <RulesCardHeader
        title={t("schedules.uptimeMail.title")}
        hint={t("schedules.uptimeMail.hint")}
        action={
          mayManage ? (
            <Button
              variant="outlined"
              onClick={() => setAdding(true)}
              data-testid="uptime-mail-add"
              sx={{ flexShrink: 0 }}
            >
              {t("schedules.add")}
            </Button>
          ) : null
        }
      />
      <QueryState query={query} isInset emptyText={t("schedules.empty")}>
        {(rules) => (
          <TableContainer>
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell>{t("schedules.columns.name")}</TableCell>
                  <TableCell>{t("schedules.uptimeMail.recipients")}</TableCell>
                  <TableCell sx={WIDE_ONLY}>{t("schedules.columns.routers")}</TableCell>
                  <TableCell sx={WIDE_ONLY}>{t("schedules.uptimeMail.language")}</TableCell>
                  <TableCell sx={WIDE_ONLY}>{t("schedules.columns.next")}</TableCell>
                  {mayManage ? <TableCell /> : null}
                </TableRow>
              </TableHead>
              <TableBody>
                {rules.map((rule) => (
                  <TableRow key={rule._id} data-testid={`uptime-mail-rule-${rule._id}`}>
                    <TableCell>{rule.name}</TableCell>
                    <TableCell sx={{ overflowWrap: "anywhere" }}>
                      {rule.recipients.map((address) => (
                        <div key={address}>{address}</div>
                      ))}
                    </TableCell>
                    <TableCell sx={WIDE_ONLY}>
                      {rule.scope === "tag" ? (
                        <Chip label={rule.tag} size="small" />
                      ) : (
                        t("schedules.activeFor.all")
                      )}
                    </TableCell>
                    <TableCell sx={WIDE_ONLY}>
                      {t(`schedules.uptimeMail.languages.${rule.language}`)}
                    </TableCell>
                    <TableCell sx={WIDE_ONLY}>
                      {rule.next_run === null ? "—" : formatMoment(rule.next_run, i18n.language)}
                    </TableCell>
                    {mayManage ? (
                      <TableCell align="right" sx={{ py: 0 }}>
                        <IconButton
                          aria-label={`${t("schedules.uptimeMail.delete")}: ${rule.name}`}
                          disabled={remove.isPending}
                          onClick={() => remove.mutate(rule._id)}
                        >
                          <DeleteIcon fontSize="small" />
                        </IconButton>
                      </TableCell>
                    ) : null}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </QueryState>
      <UptimeMailDialog isOpen={isAdding} onClose={() => setAdding(false)} />
    </Card>
  );
}
