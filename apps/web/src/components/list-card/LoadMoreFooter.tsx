import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import type { ReactNode } from "react";
import { ListPaginator } from "./ListPaginator";
import type { ListState } from "./listState";

/** The server-paged query behind a list: whether it has more, and how to fetch it. */
interface MoreRows {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

interface LoadMoreFooterProps {
  /** The rows fetched so far, paged in the browser. */
  total: number;
  page: number;
  pageSize: number;
  update: (patch: Partial<ListState>) => void;
  query: MoreRows;
  /** The browser's last page is showing: the next rows are the server's. */
  isLastPage: boolean;
  loadMoreText: ReactNode;
  loadMoreTestId: string;
}

/**
 * The footer of a list read from the server page by page (jobs, the audit log): the paginator over
 * the rows fetched so far and, on the last of them while the server has more, 'Load more'.
 */
export function LoadMoreFooter({
  total,
  page,
  pageSize,
  update,
  query,
  isLastPage,
  loadMoreText,
  loadMoreTestId,
}: LoadMoreFooterProps) {
  return (
    <Stack direction="row" sx={{ alignItems: "center", justifyContent: "flex-end", flexWrap: "wrap" }}>
      {isLastPage && query.hasNextPage ? (
        <Button
          data-testid={loadMoreTestId}
          sx={{ ml: 2 }}
          onClick={() => void query.fetchNextPage()}
          loading={query.isFetchingNextPage}
        >
          {loadMoreText}
        </Button>
      ) : null}
      <ListPaginator
        total={total}
        page={page}
        pageSize={pageSize}
        onPageChange={(next) => update({ page: next })}
        onPageSizeChange={(next) => update({ pageSize: next, page: 0 })}
      />
    </Stack>
  );
}
