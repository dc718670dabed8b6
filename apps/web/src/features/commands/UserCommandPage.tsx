import { CreateCommandTypeSchema } from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate, useParams } from "react-router";
import { apiErrorText } from "../../app/api/handleTransportError";
import { commandsKeys } from "../../app/queryKeys";
import { PageTitle } from "../../components/PageTitle";
import { QueryState } from "../../components/QueryState";
import { createCommandType, deleteCommandType } from "./commands.api";
import { commandTypesQueryOptions } from "./commands.queries";

/** /user-command/{id} ('new' for a new one): a custom command type, a named shell command (admins). */
export function UserCommandPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { command_id: id = "new" } = useParams();
  // Opened from the settings' list, it goes back there; otherwise to the new command form.
  const back = (useLocation().state as { back?: string } | null)?.back ?? "/commands/new";
  const types = useQuery(commandTypesQueryOptions());
  const [type, setType] = useState("");
  const [command, setCommand] = useState("");
  const done = () => {
    void queryClient.invalidateQueries({ queryKey: commandsKeys.types() });
    void navigate(back);
  };
  const create = useMutation({ mutationFn: createCommandType, onSuccess: done });
  const remove = useMutation({ mutationFn: deleteCommandType, onSuccess: done });
  const isValid = CreateCommandTypeSchema.safeParse({ type, command }).success;
  return (
    <>
      <PageTitle>{t("routes.userCommand")}</PageTitle>
      <QueryState query={types}>
        {(answer) => {
          const existing = answer.types.find((entry) => entry._id === id && !entry.system);
          if (id !== "new" && !existing)
            return <Alert severity="warning">{t("commands.userType.notFound")}</Alert>;
          return (
            <Card>
              <CardContent>
                <Stack spacing={2} sx={{ maxWidth: 640 }}>
                  <TextField
                    label={t("commands.userType.name")}
                    value={existing ? existing.type : type}
                    onChange={(event) => setType(event.target.value)}
                    slotProps={{ input: { readOnly: existing !== undefined } }}
                  />
                  <TextField
                    label={t("commands.userType.command")}
                    multiline
                    minRows={3}
                    value={existing ? existing.command : command}
                    onChange={(event) => setCommand(event.target.value)}
                    slotProps={{ input: { readOnly: existing !== undefined } }}
                  />
                  {create.isError ? <Alert severity="error">{apiErrorText(create.error)}</Alert> : null}
                  {remove.isError ? <Alert severity="error">{apiErrorText(remove.error)}</Alert> : null}
                  <Stack direction="row" spacing={1}>
                    {existing ? (
                      <Button
                        color="error"
                        variant="outlined"
                        onClick={() => remove.mutate(existing._id)}
                        disabled={remove.isPending}
                      >
                        {t("commands.userType.delete")}
                      </Button>
                    ) : (
                      <Button
                        variant="contained"
                        disabled={!isValid || create.isPending}
                        onClick={() => create.mutate({ type, command })}
                      >
                        {t("commands.userType.save")}
                      </Button>
                    )}
                  </Stack>
                </Stack>
              </CardContent>
            </Card>
          );
        }}
      </QueryState>
    </>
  );
}
