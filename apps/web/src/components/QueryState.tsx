import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { UseInfiniteQueryResult, UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { isApiError } from "../app/api/ApiError";
import { apiErrorText } from "../app/api/handleTransportError";
import { isMissingEntity, MissingEntity } from "./MissingEntity";

interface QueryStateProps<T> {
  /** A query, or a paged one (its data the pages read so far). */
  query: UseQueryResult<T> | UseInfiniteQueryResult<T>;
  children: (data: T) => ReactNode;
  /** Still waiting for something before the query may run (shown as pending). */
  isWaiting?: boolean;
  /** Said instead of the data when `isEmpty` tells it has nothing to show. */
  emptyText?: ReactNode;
  isEmpty?: (data: T) => boolean;
  /** Inside a card: the error keeps a margin from the card's edges. */
  isInset?: boolean;
}

/**
 * Renders a query as pending (a spinner), missing (the object does not exist, and the way back),
 * error (its text and Retry), empty, or its data.
 */
export function QueryState<T>({
  query,
  children,
  isWaiting,
  emptyText,
  isEmpty,
  isInset,
}: QueryStateProps<T>) {
  const { t } = useTranslation();
  if (isWaiting || query.isPending) {
    return (
      <Stack data-testid="query-pending" sx={{ alignItems: "center", py: 6 }}>
        <CircularProgress aria-label={t("app.loading")} />
      </Stack>
    );
  }
  if (query.isError && isMissingEntity(query.error)) {
    return <MissingEntity error={query.error} isInset={isInset} />;
  }
  if (query.isError) {
    // Reading again cannot lift a refusal (403): Retry is offered only where it may help.
    const isRefused = isApiError(query.error) && query.error.status === 403;
    return (
      <Alert
        data-testid="query-error"
        severity="error"
        sx={isInset ? { m: 2 } : undefined}
        action={
          isRefused ? undefined : (
            <Button color="inherit" size="small" onClick={() => void query.refetch()}>
              {t("common.retry")}
            </Button>
          )
        }
      >
        {apiErrorText(query.error)}
      </Alert>
    );
  }
  if (isEmpty?.(query.data)) {
    return (
      <Typography data-testid="list-empty" color="text.secondary" sx={{ p: 3, textAlign: "center" }}>
        {emptyText}
      </Typography>
    );
  }
  return <>{children(query.data)}</>;
}
