import type { ScriptKind } from "@cellfleet/contract";
import Link from "@mui/material/Link";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate } from "react-router";
import { useOffers } from "../../../app/session/useOffers";
import { RelativeTime } from "../../../components/labels";
import { ListCard, SearchBox } from "../../../components/list-card";
import { QueryState } from "../../../components/QueryState";
import { useNow } from "../../../components/useNow";
import { listScriptsQueryOptions } from "./scripts.api";

/** Where a kind's pages are: a saved script's editor is /script/{id} without file_type. */
export const SCRIPT_PAGES: Record<ScriptKind, { one: (id: string) => string; create: string }> = {
  script: { one: (id) => `/script/${encodeURIComponent(id)}`, create: "/script/new" },
  template: { one: (id) => `/template/${encodeURIComponent(id)}`, create: "/templates/new" },
};

/** The saved scripts or settings templates of the domain, by name, with a search and 'add'. */
export function SavedScriptsList({ kind, header }: { kind: ScriptKind; header?: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const offers = useOffers();
  const now = useNow();
  const query = useQuery(listScriptsQueryOptions(kind));
  const [search, setSearch] = useState("");
  const rows = (query.data ?? []).filter((row) =>
    `${row.name} ${row.description}`.toLowerCase().includes(search.toLowerCase()),
  );
  const canEdit = offers(kind === "script" ? "scripts.edit" : "templates.edit");
  return (
    <ListCard
      title={t(`scripts.${kind}.listTitle`)}
      subtitle={query.data ? t("scripts.total", { count: rows.length }) : undefined}
      filters={
        <>
          {header}
          <SearchBox prefix={`saved-${kind}s`} value={search} onChange={setSearch} />
        </>
      }
      onReload={() => void query.refetch()}
      onAdd={canEdit ? () => void navigate(SCRIPT_PAGES[kind].create) : undefined}
    >
      <QueryState query={query}>
        {() =>
          rows.length === 0 ? (
            <Typography sx={{ p: 2 }} color="text.secondary">
              {t(`scripts.${kind}.none`)}
            </Typography>
          ) : (
            <Table size="small" data-testid={`saved-${kind}s`}>
              <TableHead>
                <TableRow>
                  <TableCell>{t("scripts.columns.name")}</TableCell>
                  <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>
                    {t("scripts.columns.description")}
                  </TableCell>
                  <TableCell align="right">{t("scripts.columns.version")}</TableCell>
                  <TableCell>{t("scripts.columns.updated")}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((row) => (
                  <TableRow key={row._id} hover>
                    <TableCell>
                      <Link component={RouterLink} to={SCRIPT_PAGES[kind].one(row._id)}>
                        {row.name}
                      </Link>
                    </TableCell>
                    <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>
                      {row.description}
                    </TableCell>
                    <TableCell align="right">{row.version}</TableCell>
                    <TableCell>
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
  );
}
