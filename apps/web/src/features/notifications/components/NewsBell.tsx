import type { NewsItem, NewsLevel } from "@cellfleet/contract";
import CheckCircleIcon from "@mui/icons-material/CheckCircle";
import ErrorIcon from "@mui/icons-material/Error";
import InfoIcon from "@mui/icons-material/Info";
import NotificationsIcon from "@mui/icons-material/Notifications";
import WarningIcon from "@mui/icons-material/Warning";
import Alert from "@mui/material/Alert";
import Badge from "@mui/material/Badge";
import Button from "@mui/material/Button";
import Divider from "@mui/material/Divider";
import IconButton from "@mui/material/IconButton";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Popover from "@mui/material/Popover";
import Stack from "@mui/material/Stack";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useOffers } from "../../../app/session/useOffers";
import { formatDateTime } from "../../../components/formatDate";
import { useWaitingApprovals } from "../../events/approvalNotices";
import { newsQueryOptions, useMarkNewsSeen, useNotificationsLive } from "../news.queries";

const ICONS: Record<NewsLevel, ReactNode> = {
  error: <ErrorIcon color="error" fontSize="small" />,
  warning: <WarningIcon color="warning" fontSize="small" />,
  info: <InfoIcon color="info" fontSize="small" />,
  success: <CheckCircleIcon color="success" fontSize="small" />,
};

function NewsList({ items, seenUntil }: { items: NewsItem[]; seenUntil: number | null }) {
  const { t } = useTranslation();
  if (items.length === 0) {
    return (
      <Typography color="text.secondary" sx={{ p: 2 }}>
        {t("news.empty")}
      </Typography>
    );
  }
  return (
    <List dense disablePadding data-testid="news-list">
      {items.map((item) => (
        <ListItem
          key={item._id}
          alignItems="flex-start"
          sx={{ opacity: seenUntil !== null && item.create_time <= seenUntil ? 0.7 : 1 }}
        >
          <ListItemIcon sx={{ minWidth: 32, mt: 0.5 }}>{ICONS[item.level]}</ListItemIcon>
          <ListItemText
            primary={item.title}
            secondary={formatDateTime(item.create_time)}
            slotProps={{ primary: { sx: { wordBreak: "break-word" } } }}
          />
        </ListItem>
      ))}
    </List>
  );
}

/**
 * The in-app notifications (spec section 7): a bell in the toolbar with the count of items the
 * person has not seen, kept current by the socket's `notifications` message. Opening it marks
 * them seen. Shown only to people with the notification plugin.
 */
export function NewsBell() {
  const offers = useOffers();
  return offers("notifications.view") ? <Bell /> : null;
}

function Bell() {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const query = useQuery(newsQueryOptions());
  const markSeen = useMarkNewsSeen();
  useNotificationsLive();
  const waiting = useWaitingApprovals();
  const unseen = query.data?.unseen ?? 0;
  const handleOpen = (element: HTMLElement) => {
    setAnchor(element);
    const newest = query.data?.items[0]?.create_time;
    if (unseen > 0 && newest !== undefined) markSeen.mutate(newest);
  };
  return (
    <>
      <Tooltip title={t("news.title")}>
        <IconButton
          color="inherit"
          aria-label={t("news.open", { count: unseen + waiting })}
          data-testid="news-bell"
          onClick={(event) => handleOpen(event.currentTarget)}
        >
          <Badge color="error" badgeContent={unseen + waiting} max={99}>
            <NotificationsIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
        slotProps={{ paper: { sx: { width: "min(420px, calc(100vw - 24px))", maxHeight: "70vh" } } }}
      >
        <Stack direction="row" sx={{ px: 2, py: 1.5, alignItems: "center" }}>
          <Typography variant="subtitle1" sx={{ flexGrow: 1, fontWeight: 600 }}>
            {t("news.title")}
          </Typography>
          <Button component={Link} to="/notifications?tab=log" size="small" onClick={() => setAnchor(null)}>
            {t("news.all")}
          </Button>
        </Stack>
        <Divider />
        {waiting > 0 ? (
          <Alert
            severity="warning"
            square
            data-testid="news-waiting"
            action={
              <Button
                color="inherit"
                size="small"
                component={Link}
                to="/commands"
                onClick={() => setAnchor(null)}
              >
                {t("news.waitingOpen")}
              </Button>
            }
          >
            {t("news.waiting", { count: waiting })}
          </Alert>
        ) : null}
        <NewsList items={query.data?.items ?? []} seenUntil={query.data?.seen_until ?? null} />
      </Popover>
    </>
  );
}
