import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate } from "react-router";
import { useOffers } from "../../app/session/useOffers";
import { RelativeTime } from "../../components/labels";
import { ListCard, SearchBox } from "../../components/list-card";
import { PageTitle } from "../../components/PageTitle";
import { QueryState } from "../../components/QueryState";
import { useNow } from "../../components/useNow";
import { adoptionsQueryOptions, configsQueryOptions } from "./zerotouch.api";

const HIDE_ON_PHONE = { display: { xs: "none", md: "table-cell" } } as const;

/** /zerotouch: the domain's zero-touch configurations, and the way to the adoption list. */
export function ZeroTouchPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const offers = useOffers();
  const now = useNow();
  const query = useQuery(configsQueryOptions());
  const pending = useQuery(adoptionsQueryOptions("pending"));
  const [search, setSearch] = useState("");
  const rows = (query.data ?? []).filter((row) =>
    [row.name, row.key_id, row.template?.name ?? "", ...row.tags, ...row.models]
      .join(" ")
      .toLowerCase()
      .includes(search.toLowerCase()),
  );
  const waiting = pending.data?.length ?? 0;
  return (
    <>
      <PageTitle>{t("routes.zeroTouch")}</PageTitle>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1} sx={{ mb: 2, alignItems: { sm: "center" } }}>
        <Typography color="text.secondary" sx={{ flexGrow: 1 }}>
          {t("zeroTouch.intro")}
        </Typography>
        <Button
          variant={waiting > 0 ? "contained" : "outlined"}
          component={RouterLink}
          to="/zerotouch/adoption"
          data-testid="open-adoption"
        >
          {t("zeroTouch.adoption.open", { count: waiting })}
        </Button>
      </Stack>
      <ListCard
        title={t("zeroTouch.listTitle")}
        subtitle={query.data ? t("zeroTouch.total", { count: rows.length }) : undefined}
        filters={<SearchBox prefix="zerotouch" value={search} onChange={setSearch} />}
        onReload={() => void query.refetch()}
        onAdd={offers("zeroTouch.manage") ? () => void navigate("/zerotouch/config/new") : undefined}
      >
        <QueryState query={query}>
          {() =>
            rows.length === 0 ? (
              <Typography sx={{ p: 2 }} color="text.secondary">
                {t("zeroTouch.none")}
              </Typography>
            ) : (
              <Table size="small" data-testid="zerotouch-configs">
                <TableHead>
                  <TableRow>
                    <TableCell>{t("zeroTouch.fields.name")}</TableCell>
                    <TableCell>{t("zeroTouch.fields.keyId")}</TableCell>
                    <TableCell sx={HIDE_ON_PHONE}>{t("zeroTouch.fields.matches")}</TableCell>
                    <TableCell sx={HIDE_ON_PHONE}>{t("zeroTouch.fields.tags")}</TableCell>
                    <TableCell sx={HIDE_ON_PHONE}>{t("zeroTouch.fields.template")}</TableCell>
                    <TableCell align="right">{t("zeroTouch.fields.joined")}</TableCell>
                    <TableCell sx={HIDE_ON_PHONE}>{t("zeroTouch.fields.updated")}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {rows.map((row) => (
                    <TableRow key={row._id} hover>
                      <TableCell>
                        <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
                          <Link component={RouterLink} to={`/zerotouch/config/${row._id}`}>
                            {row.name}
                          </Link>
                          {row.active ? null : <Chip size="small" label={t("zeroTouch.paused")} />}
                        </Stack>
                      </TableCell>
                      <TableCell sx={{ fontFamily: "monospace" }}>{row.key_id}</TableCell>
                      <TableCell sx={HIDE_ON_PHONE}>
                        {t("zeroTouch.matchSummary", {
                          models: row.models.length,
                          serials: row.serial_ranges.length,
                          imeis: row.imei_ranges.length,
                        })}
                      </TableCell>
                      <TableCell sx={HIDE_ON_PHONE}>
                        {row.tags.map((tag) => (
                          <Chip key={tag} size="small" label={tag} sx={{ mr: 0.5 }} />
                        ))}
                      </TableCell>
                      <TableCell sx={HIDE_ON_PHONE}>{row.template?.name ?? "—"}</TableCell>
                      <TableCell align="right">{row.joined}</TableCell>
                      <TableCell sx={HIDE_ON_PHONE}>
                        <RelativeTime time={row.update_time} now={now} />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )
          }
        </QueryState>
      </ListCard>
    </>
  );
}
