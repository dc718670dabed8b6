import { validateBotToken } from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { apiErrorText } from "../../../app/api/handleTransportError";
import { testAnswerText } from "../providerAnswer";
import { useLookupChats } from "../transports.queries";

interface ChatLookupProps {
  /** The token typed in the form (empty: the stored one of `transportId`). */
  token: string;
  transportId?: string;
  onPick: (chatId: string) => void;
}

/**
 * "Look up chat id" (spec section 3): the chats the bot heard from lately; picking one fills the
 * chat id. With none, it says what to do: write to the bot, or add it to the group and post there.
 */
export function ChatLookup({ token, transportId, onPick }: ChatLookupProps) {
  const { t } = useTranslation();
  const lookup = useLookupChats();
  const typed = token.trim();
  const canLook =
    (typed !== "" && validateBotToken(typed) === null) || (typed === "" && transportId !== undefined);
  const answer = lookup.data;
  return (
    <Stack spacing={1.5} data-testid="chat-lookup">
      <Stack direction="row" spacing={2} sx={{ alignItems: "center", flexWrap: "wrap", rowGap: 1 }}>
        <Button
          variant="outlined"
          disabled={!canLook}
          loading={lookup.isPending}
          onClick={() => lookup.mutate(typed ? { bot_token: typed } : { transport_id: transportId })}
        >
          {t("notifications.transport.lookup")}
        </Button>
        <Typography variant="body2" color="text.secondary">
          {t("notifications.transport.lookupHint")}
        </Typography>
      </Stack>
      {lookup.isError ? <Alert severity="error">{apiErrorText(lookup.error)}</Alert> : null}
      {answer && !answer.ok ? <Alert severity="error">{testAnswerText(answer, "")}</Alert> : null}
      {answer?.ok && answer.chats.length === 0 ? (
        <Alert severity="info" data-testid="chat-lookup-empty">
          {t("notifications.transport.lookupNone")}
        </Alert>
      ) : null}
      {answer?.ok && answer.chats.length > 0 ? (
        <Stack direction="row" spacing={1} sx={{ flexWrap: "wrap", rowGap: 1 }}>
          {answer.chats.map((chat) => (
            <Chip
              key={chat.id}
              label={`${chat.title} · ${chat.id}`}
              onClick={() => onPick(chat.id)}
              variant="outlined"
              data-testid="chat-lookup-chat"
            />
          ))}
        </Stack>
      ) : null}
    </Stack>
  );
}
