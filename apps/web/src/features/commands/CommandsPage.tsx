import { ACTION_STATUSES, actionStatusLabelKey, COMMAND_TYPES } from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate } from "react-router";
import { useOffers } from "../../app/session/useOffers";
import { RelativeTime } from "../../components/labels";
import {
  clampPage,
  ListCard,
  ListPaginator,
  pageCount,
  SearchBox,
  useListState,
} from "../../components/list-card";
import { PageTitle } from "../../components/PageTitle";
import { QueryState } from "../../components/QueryState";
import { useNow } from "../../components/useNow";
import { useWaitingApprovals } from "../events/approvalNotices";
import { matchesCommandSearch, targetsLabel } from "./commandSearch";
import { commandsQueryOptions, useLiveCommands } from "./commands.queries";
import { typeLabel } from "./commandTypes";
import { CommandStatusChip, commandStatusText } from "./components/CommandStatusChip";

const WIDE_ONLY = { display: { xs: "none", md: "table-cell" } } as const;
// A phone (390 px) keeps two columns, type and status; the progress and the time go under the type
// instead of past the screen's edge (issue 27: the list scrolled sideways).
const NOT_ON_PHONE = { display: { xs: "none", sm: "table-cell" } } as const;
const PHONE_ONLY = { display: { xs: "block", sm: "none" } } as const;

/** /commands: the domain's commands, streamed, with status and type facets, updated live. */
export function CommandsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const offers = useOffers();
  const now = useNow();
  const [state, update] = useListState("commands");
  const waiting = useWaitingApprovals();
  const status = state.facets.status ?? [];
  const type = state.facets.type ?? [];
  const filter = { ...(status.length > 0 ? { status } : {}), ...(type.length > 0 ? { type } : {}) };
  const commands = useQuery(commandsQueryOptions(filter));
  useLiveCommands();
  const all = (commands.data ?? []).filter((command) =>
    matchesCommandSearch(
      [
        typeLabel(t, command.type),
        commandStatusText(t, command),
        targetsLabel(t, command.targets),
        command.author.name,
        command.approver?.name ?? "",
        command._id,
      ],
      state.search,
    ),
  );
  const pages = pageCount(all.length, state.pageSize);
  const page = clampPage(state.page, pages);
  const visible = all.slice(page * state.pageSize, (page + 1) * state.pageSize);

  return (
    <>
      <PageTitle>{t("routes.commands")}</PageTitle>
      {waiting > 0 ? (
        <Alert
          severity="warning"
          sx={{ mb: 2 }}
          data-testid="commands-waiting"
          action={
            <Button
              color="inherit"
              size="small"
              onClick={() => update({ facets: { ...state.facets, status: ["unapproved"] }, page: 0 })}
            >
              {t("commands.waitingShow")}
            </Button>
          }
        >
          {t("news.waiting", { count: waiting })}
        </Alert>
      ) : null}
      <ListCard
        title={t("commands.title")}
        subtitle={commands.data ? t("commands.loaded", { count: all.length }) : undefined}
        onReload={() => void commands.refetch()}
        csvExport={{ section: "commands", body: filter }}
        onAdd={offers("commands.create") ? () => void navigate("/commands/new") : undefined}
        filters={
          <Stack direction="row" sx={{ flexWrap: "wrap", gap: 1 }}>
            <SearchBox
              prefix="commands"
              value={state.search}
              onChange={(search) => update({ search, page: 0 })}
            />
            <TextField
              select
              size="small"
              label={t("commands.columns.status")}
              sx={{ minWidth: 180 }}
              value={status}
              slotProps={{ select: { multiple: true } }}
              onChange={(event) =>
                update({
                  facets: { ...state.facets, status: event.target.value as unknown as string[] },
                  page: 0,
                })
              }
              data-testid="status-facet"
            >
              {ACTION_STATUSES.map((value) => (
                <MenuItem key={value} value={value}>
                  {t(`commands.status.${actionStatusLabelKey(value)}`)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              size="small"
              label={t("commands.columns.type")}
              sx={{ minWidth: 160 }}
              value={type}
              slotProps={{ select: { multiple: true } }}
              onChange={(event) =>
                update({
                  facets: { ...state.facets, type: event.target.value as unknown as string[] },
                  page: 0,
                })
              }
            >
              {COMMAND_TYPES.map((value) => (
                <MenuItem key={value} value={value}>
                  {t(`commands.types.${value}`)}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
        }
        footer={
          <ListPaginator
            total={all.length}
            page={page}
            pageSize={state.pageSize}
            onPageChange={(next) => update({ page: next })}
            onPageSizeChange={(pageSize) => update({ pageSize, page: 0 })}
          />
        }
      >
        <QueryState
          query={commands}
          isInset
          isEmpty={(rows) => rows.length === 0}
          emptyText={t("commands.none")}
        >
          {() => (
            <TableContainer>
              <Table size="small" data-testid="commands-table">
                <TableHead>
                  <TableRow>
                    <TableCell>{t("commands.columns.type")}</TableCell>
                    <TableCell>{t("commands.columns.status")}</TableCell>
                    <TableCell sx={WIDE_ONLY}>{t("commands.columns.targets")}</TableCell>
                    <TableCell sx={NOT_ON_PHONE}>{t("commands.columns.progress")}</TableCell>
                    <TableCell sx={WIDE_ONLY}>{t("commands.columns.author")}</TableCell>
                    <TableCell sx={WIDE_ONLY}>{t("commands.columns.approver")}</TableCell>
                    <TableCell sx={NOT_ON_PHONE}>{t("commands.columns.created")}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {visible.map((command) => (
                    <TableRow key={command._id} hover data-testid="command-row">
                      <TableCell>
                        <Link component={RouterLink} to={`/command/${command._id}`}>
                          {typeLabel(t, command.type)}
                        </Link>
                        <Typography variant="caption" color="text.secondary" sx={PHONE_ONLY}>
                          {t("commands.progress", {
                            done: command.counts.completed ?? 0,
                            total: command.total,
                          })}
                          {" · "}
                          <RelativeTime time={command.create_time} now={now} />
                        </Typography>
                      </TableCell>
                      <TableCell>
                        <CommandStatusChip command={command} />
                      </TableCell>
                      <TableCell sx={WIDE_ONLY} data-testid="command-targets">
                        {targetsLabel(t, command.targets)}
                      </TableCell>
                      <TableCell sx={NOT_ON_PHONE}>
                        {t("commands.progress", {
                          done: command.counts.completed ?? 0,
                          total: command.total,
                        })}
                      </TableCell>
                      <TableCell sx={WIDE_ONLY}>{command.author.name}</TableCell>
                      <TableCell sx={WIDE_ONLY}>{command.approver?.name ?? "—"}</TableCell>
                      <TableCell sx={NOT_ON_PHONE}>
                        <RelativeTime time={command.create_time} now={now} />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
        </QueryState>
      </ListCard>
    </>
  );
}
