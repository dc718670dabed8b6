import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";

interface SimpleTableProps<R> {
  headers: string[];
  rows: R[];
  rowKey: (row: R, index: number) => string;
  cells: (row: R) => ReactNode[];
  emptyText: string;
  testId: string;
}

/** A plain read-only table of the device page; an empty one says so instead. */
export function SimpleTable<R>({ headers, rows, rowKey, cells, emptyText, testId }: SimpleTableProps<R>) {
  if (rows.length === 0)
    return (
      <Typography color="text.secondary" sx={{ p: 2 }}>
        {emptyText}
      </Typography>
    );
  return (
    <TableContainer>
      <Table size="small" data-testid={testId}>
        <TableHead>
          <TableRow>
            {headers.map((header) => (
              <TableCell key={header} sx={{ whiteSpace: "nowrap" }}>
                {header}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row, index) => (
            <TableRow key={rowKey(row, index)} hover>
              {cells(row).map((cell, column) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: cells are positional columns of a fixed header
                <TableCell key={column}>{cell}</TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
