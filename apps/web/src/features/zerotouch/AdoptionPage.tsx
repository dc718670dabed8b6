import type { Adoption, AdoptionStatus } from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import Chip from "@mui/material/Chip";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControlLabel from "@mui/material/FormControlLabel";
import Link from "@mui/material/Link";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { apiErrorText } from "../../app/api/handleTransportError";
import { useOffers } from "../../app/session/useOffers";
import { RelativeTime } from "../../components/labels";
import { ListCard, TagsInput } from "../../components/list-card";
import { PageTitle } from "../../components/PageTitle";
import { QueryState } from "../../components/QueryState";
import { useNow } from "../../components/useNow";
import { tagFrequenciesQueryOptions } from "../devices/devices.queries";
import { adoptionsQueryOptions, configsQueryOptions, decideAdoption, zeroTouchKeys } from "./zerotouch.api";

const HIDE_ON_PHONE = { display: { xs: "none", md: "table-cell" } } as const;
const STATUS_COLOR = { pending: "warning", rejected: "error", accepted: "success" } as const;
const FILTERS: (AdoptionStatus | "all")[] = ["pending", "rejected", "accepted", "all"];

/** /zerotouch/adoption: routers a configuration did not match, to accept (with tags) or reject. */
export function AdoptionPage() {
  const { t } = useTranslation();
  const now = useNow();
  const offers = useOffers();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<AdoptionStatus | "all">("pending");
  const [accepting, setAccepting] = useState<Adoption | null>(null);
  const query = useQuery(adoptionsQueryOptions(status));
  const reject = useMutation({
    mutationFn: (id: string) => decideAdoption(id, "reject"),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: zeroTouchKeys.all }),
  });
  const mayDecide = offers("zeroTouch.manage");
  return (
    <>
      <PageTitle>{t("routes.adoption")}</PageTitle>
      <ListCard
        title={t("zeroTouch.adoption.title")}
        subtitle={query.data ? t("zeroTouch.adoption.total", { count: query.data.length }) : undefined}
        filters={
          <TextField
            select
            size="small"
            label={t("zeroTouch.adoption.status")}
            value={status}
            onChange={(e) => setStatus(e.target.value as AdoptionStatus | "all")}
            sx={{ minWidth: 180 }}
            data-testid="adoption-filter"
          >
            {FILTERS.map((filter) => (
              <MenuItem key={filter} value={filter}>
                {t(`zeroTouch.adoption.statuses.${filter}`)}
              </MenuItem>
            ))}
          </TextField>
        }
        onReload={() => void query.refetch()}
      >
        {reject.isError ? <Alert severity="error">{apiErrorText(reject.error)}</Alert> : null}
        <QueryState query={query}>
          {(rows) =>
            rows.length === 0 ? (
              <Typography sx={{ p: 2 }} color="text.secondary">
                {t("zeroTouch.adoption.none")}
              </Typography>
            ) : (
              <Table size="small" data-testid="adoption-list">
                <TableHead>
                  <TableRow>
                    <TableCell>{t("zeroTouch.adoption.ident")}</TableCell>
                    <TableCell sx={HIDE_ON_PHONE}>{t("zeroTouch.adoption.model")}</TableCell>
                    <TableCell sx={HIDE_ON_PHONE}>{t("zeroTouch.adoption.serial")}</TableCell>
                    <TableCell sx={HIDE_ON_PHONE}>{t("zeroTouch.adoption.imei")}</TableCell>
                    <TableCell sx={HIDE_ON_PHONE}>{t("zeroTouch.adoption.config")}</TableCell>
                    <TableCell>{t("zeroTouch.adoption.status")}</TableCell>
                    <TableCell sx={HIDE_ON_PHONE}>{t("zeroTouch.adoption.lastSeen")}</TableCell>
                    {mayDecide ? <TableCell align="right" /> : null}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {rows.map((row) => (
                    <TableRow key={row._id} hover data-testid={`adoption-${row.ident}`}>
                      <TableCell sx={{ fontFamily: "monospace" }}>
                        {row.device_id ? (
                          <Link component={RouterLink} to={`/device/${row.device_id}`}>
                            {row.ident}
                          </Link>
                        ) : (
                          row.ident
                        )}
                      </TableCell>
                      <TableCell sx={HIDE_ON_PHONE}>{row.model || "—"}</TableCell>
                      <TableCell sx={HIDE_ON_PHONE}>{row.serial || "—"}</TableCell>
                      <TableCell sx={HIDE_ON_PHONE}>{row.imei || "—"}</TableCell>
                      <TableCell sx={HIDE_ON_PHONE}>{row.config?.name ?? "—"}</TableCell>
                      <TableCell>
                        <Chip
                          size="small"
                          color={STATUS_COLOR[row.status]}
                          label={t(`zeroTouch.adoption.statuses.${row.status}`)}
                        />
                      </TableCell>
                      <TableCell sx={HIDE_ON_PHONE}>
                        <RelativeTime time={row.last_seen} now={now} />{" "}
                        <Typography component="span" variant="caption" color="text.secondary">
                          {t("zeroTouch.adoption.attempts", {
                            count: row.attempts,
                            address: row.address ?? "?",
                          })}
                        </Typography>
                      </TableCell>
                      {mayDecide ? (
                        <TableCell align="right" sx={{ px: { xs: 1, sm: 2 } }}>
                          {row.status === "accepted" ? null : (
                            <Stack
                              direction={{ xs: "column", lg: "row" }}
                              spacing={1}
                              sx={{ justifyContent: "flex-end", alignItems: { xs: "stretch", lg: "center" } }}
                            >
                              <Button size="small" variant="contained" onClick={() => setAccepting(row)}>
                                {t("zeroTouch.adoption.accept")}
                              </Button>
                              {row.status === "pending" ? (
                                <Button
                                  size="small"
                                  color="error"
                                  disabled={reject.isPending}
                                  onClick={() => reject.mutate(row._id)}
                                >
                                  {t("zeroTouch.adoption.reject")}
                                </Button>
                              ) : null}
                            </Stack>
                          )}
                        </TableCell>
                      ) : null}
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )
          }
        </QueryState>
      </ListCard>
      {accepting ? <AcceptDialog adoption={accepting} onClose={() => setAccepting(null)} /> : null}
    </>
  );
}

/** Accepting: the tags the router gets (its configuration's to start with) and whether its template is sent. */
function AcceptDialog({ adoption, onClose }: { adoption: Adoption; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const configs = useQuery(configsQueryOptions());
  const frequencies = useQuery(tagFrequenciesQueryOptions());
  const config = configs.data?.find((candidate) => candidate._id === adoption.config?._id);
  const [tags, setTags] = useState<string[] | null>(null);
  const [applyTemplate, setApplyTemplate] = useState(true);
  const chosen = tags ?? config?.tags ?? [];
  const accept = useMutation({
    mutationFn: () => decideAdoption(adoption._id, "accept", { tags: chosen, apply_template: applyTemplate }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: zeroTouchKeys.all });
      onClose();
    },
  });
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{t("zeroTouch.adoption.acceptTitle", { ident: adoption.ident })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Typography variant="body2" color="text.secondary">
            {t("zeroTouch.adoption.acceptHelp")}
          </Typography>
          <TagsInput
            value={chosen}
            onChange={setTags}
            frequencies={frequencies.data}
            label={t("zeroTouch.fields.tags")}
            limitTags={6}
            isFullWidth
          />
          {config?.template ? (
            <FormControlLabel
              control={
                <Checkbox checked={applyTemplate} onChange={(e) => setApplyTemplate(e.target.checked)} />
              }
              label={t("zeroTouch.adoption.applyTemplate", { name: config.template.name })}
            />
          ) : null}
          {accept.isError ? <Alert severity="error">{apiErrorText(accept.error)}</Alert> : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("zeroTouch.adoption.cancel")}</Button>
        <Button
          variant="contained"
          disabled={accept.isPending}
          onClick={() => accept.mutate()}
          data-testid="adoption-accept"
        >
          {t("zeroTouch.adoption.accept")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
