import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Stack from "@mui/material/Stack";
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { apiErrorText } from "../../../app/api/handleTransportError";

interface QueryStateProps<T> {
  query: UseQueryResult<T>;
  children: (data: T) => ReactNode;
}

/** Renders a query as pending (a spinner), error (its text and Retry) or its data. */
export function QueryState<T>({ query, children }: QueryStateProps<T>) {
  const { t } = useTranslation();
  if (query.isPending) {
    return (
      <Stack data-testid="query-pending" sx={{ alignItems: "center", py: 6 }}>
        <CircularProgress aria-label={t("app.loading")} />
      </Stack>
    );
  }
  if (query.isError) {
    return (
      <Alert
        data-testid="query-error"
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void query.refetch()}>
            {t("common.retry")}
          </Button>
        }
      >
        {apiErrorText(query.error)}
      </Alert>
    );
  }
  return <>{children(query.data)}</>;
}
