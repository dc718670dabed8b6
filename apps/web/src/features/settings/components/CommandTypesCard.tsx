import { type CommandTypeDto, SETTINGS_ACTIONS_ROWS_PER_PAGE } from "@cellfleet/contract";
import AddIcon from "@mui/icons-material/Add";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Checkbox from "@mui/material/Checkbox";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { DeleteButton } from "../../../components/DeleteButton";
import { clampPage, ListPaginator, pageCount } from "../../../components/list-card";
import { QueryState } from "../../../components/QueryState";
import { commandTypesQueryOptions, useDeleteCommandTypes } from "../../commands/commands.queries";

/**
 * The custom action types on /settings (spec sections 2 and 9): named shell commands an admin adds,
 * opens (/user-command/{id}) and deletes, one by one or the checked ones, each after a second click;
 * three rows a page. Built-in types are not listed: they cannot be changed (SYSTEM_COMMAND_TYPE).
 */
export function CommandTypesCard({ mayManage }: { mayManage: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const query = useQuery({
    ...commandTypesQueryOptions(),
    select: (answer) => answer.types.filter((type) => !type.system),
  });
  const remove = useDeleteCommandTypes();
  const [page, setPage] = useState(0);
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const back = { state: { back: "/settings" } };

  function handleDelete(ids: string[]) {
    remove.mutate(ids, { onSettled: () => setChecked(new Set()) });
  }

  function toggle(id: string) {
    setChecked((previous) => {
      const next = new Set(previous);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  return (
    <Card data-testid="command-types">
      <CardContent sx={{ pb: 1 }}>
        <Stack direction="row" sx={{ alignItems: "center", gap: 1 }}>
          <Stack sx={{ flexGrow: 1 }}>
            <Typography variant="h6" component="h2">
              {t("settings.commandTypes.title")}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t("settings.commandTypes.hint")}
            </Typography>
          </Stack>
          {mayManage && checked.size > 0 ? (
            <DeleteButton
              hasText
              label={t("settings.commandTypes.deleteChecked", { count: checked.size })}
              disabled={remove.isPending}
              onDelete={() => handleDelete([...checked])}
            />
          ) : null}
          {mayManage ? (
            <Tooltip title={t("fleet.list.add")}>
              <IconButton
                aria-label={t("settings.commandTypes.add")}
                color="primary"
                onClick={() => void navigate("/user-command/new", back)}
              >
                <AddIcon />
              </IconButton>
            </Tooltip>
          ) : null}
        </Stack>
      </CardContent>
      <QueryState
        query={query}
        isEmpty={(types) => types.length === 0}
        emptyText={t("settings.commandTypes.empty")}
        isInset
      >
        {(types) => {
          const pages = pageCount(types.length, SETTINGS_ACTIONS_ROWS_PER_PAGE);
          const current = clampPage(page, pages);
          const start = current * SETTINGS_ACTIONS_ROWS_PER_PAGE;
          const visible = types.slice(start, start + SETTINGS_ACTIONS_ROWS_PER_PAGE);
          return (
            <>
              <Table size="small">
                <TableHead>
                  <TableRow>
                    {mayManage ? <TableCell padding="checkbox" /> : null}
                    <TableCell>{t("settings.commandTypes.name")}</TableCell>
                    <TableCell>{t("settings.commandTypes.command")}</TableCell>
                    {mayManage ? <TableCell /> : null}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {visible.map((type: CommandTypeDto) => (
                    <TableRow
                      key={type._id}
                      hover
                      data-testid={`command-type-${type.type}`}
                      sx={{ cursor: "pointer" }}
                      onClick={() => void navigate(`/user-command/${encodeURIComponent(type._id)}`, back)}
                    >
                      {mayManage ? (
                        <TableCell padding="checkbox" onClick={(event) => event.stopPropagation()}>
                          <Checkbox
                            checked={checked.has(type._id)}
                            onChange={() => toggle(type._id)}
                            slotProps={{ input: { "aria-label": type.type } }}
                          />
                        </TableCell>
                      ) : null}
                      <TableCell>{type.type}</TableCell>
                      <TableCell
                        sx={{
                          fontFamily: "monospace",
                          maxWidth: 360,
                          overflow: "hidden",
                          textOverflow: "ellipsis",
                        }}
                      >
                        {type.command}
                      </TableCell>
                      {mayManage ? (
                        <TableCell align="right" sx={{ py: 0 }} onClick={(event) => event.stopPropagation()}>
                          <DeleteButton
                            disabled={remove.isPending}
                            onDelete={() => handleDelete([type._id])}
                          />
                        </TableCell>
                      ) : null}
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
              <ListPaginator
                total={types.length}
                page={current}
                pageSize={SETTINGS_ACTIONS_ROWS_PER_PAGE}
                onPageChange={setPage}
              />
            </>
          );
        }}
      </QueryState>
    </Card>
  );
}
