import { PAGE_SIZE_OPTIONS } from "@cellfleet/contract";
import FirstPageIcon from "@mui/icons-material/FirstPage";
import LastPageIcon from "@mui/icons-material/LastPage";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import MenuItem from "@mui/material/MenuItem";
import Select from "@mui/material/Select";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { clampPage, pageButtons, pageCount } from "./paginator";

interface ListPaginatorProps {
  total: number;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  /** Without it the page size is fixed (the settings' action types: 3 rows, spec section 9). */
  onPageSizeChange?: (size: number) => void;
}

/** The list card's paginator: up to three page buttons, first/last, and page sizes 10/50/100. */
export function ListPaginator({ total, page, pageSize, onPageChange, onPageSizeChange }: ListPaginatorProps) {
  const { t } = useTranslation();
  const pages = pageCount(total, pageSize);
  const current = clampPage(page, pages);
  const from = total === 0 ? 0 : current * pageSize + 1;
  const to = Math.min(total, (current + 1) * pageSize);
  return (
    <Stack
      direction="row"
      data-testid="list-paginator"
      sx={{ alignItems: "center", justifyContent: "flex-end", flexWrap: "wrap", gap: 1, px: 2, py: 1 }}
    >
      {onPageSizeChange ? (
        <>
          <Typography variant="body2" color="text.secondary">
            {t("fleet.list.rowsPerPage")}
          </Typography>
          <Select
            size="small"
            variant="standard"
            value={pageSize}
            inputProps={{ "aria-label": t("fleet.list.rowsPerPage") }}
            onChange={(event) => onPageSizeChange(Number(event.target.value))}
          >
            {PAGE_SIZE_OPTIONS.map((size) => (
              <MenuItem key={size} value={size}>
                {size}
              </MenuItem>
            ))}
          </Select>
        </>
      ) : null}
      <Typography variant="body2" color="text.secondary" sx={{ mx: 1 }}>
        {t("fleet.list.range", { from, to, total })}
      </Typography>
      <IconButton
        size="small"
        aria-label={t("fleet.list.firstPage")}
        disabled={current === 0}
        onClick={() => onPageChange(0)}
      >
        <FirstPageIcon fontSize="small" />
      </IconButton>
      {pageButtons(current, pages).map((number) => (
        <Button
          key={number}
          size="small"
          variant={number === current ? "contained" : "text"}
          aria-current={number === current ? "page" : undefined}
          aria-label={t("fleet.list.page", { page: number + 1 })}
          onClick={() => onPageChange(number)}
          sx={{ minWidth: 36 }}
        >
          {number + 1}
        </Button>
      ))}
      <IconButton
        size="small"
        aria-label={t("fleet.list.lastPage")}
        disabled={current >= pages - 1}
        onClick={() => onPageChange(pages - 1)}
      >
        <LastPageIcon fontSize="small" />
      </IconButton>
    </Stack>
  );
}
