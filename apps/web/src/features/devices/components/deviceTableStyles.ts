import type { SignalQuality } from "@cellfleet/contract";
import { alpha, darken, lighten, styled } from "@mui/material/styles";
import Table from "@mui/material/Table";
import type { STATUS_COLORS } from "./DeviceLabels";

/**
 * Class names of the device rows' plain elements. A row is plain `<tr>`/`<td>`/`<span>` markup: MUI's
 * TableCell, Chip, Link and Tooltip cost about 2 ms a row, so their looks are reproduced here, once
 * for the whole table, instead of being computed for each of up to 100 rows.
 */
export const rowClasses = {
  row: "DeviceRow-root",
  cell: "DeviceRow-cell",
  checkboxCell: "DeviceRow-checkboxCell",
  /** Hidden on a phone, where the status and signal matter more than the description, model and firmware. */
  wideOnly: "DeviceRow-wideOnly",
  description: "DeviceRow-description",
  ident: "DeviceRow-ident",
  tags: "DeviceRow-tags",
  chip: "DeviceRow-chip",
  chipLabel: "DeviceRow-chipLabel",
  outlined: "DeviceRow-outlined",
  nowrap: "DeviceRow-nowrap",
  /** A long value (firmware) cut with an ellipsis; the whole value is its hover text. */
  clipped: "DeviceRow-clipped",
  /** The status chip with the WAN chip under it when the uplink is down. */
  statusStack: "DeviceRow-statusStack",
  /** The dot of a connection chip: on (connected) or off (disconnected). */
  dot: "DeviceRow-dot",
  dotOn: "DeviceRow-dotOn",
  dotOff: "DeviceRow-dotOff",
  /** The time of day under "just now": a table of recent contacts still tells them apart. */
  clock: "DeviceRow-clock",
} as const;

/** The class of a chip's colour (a STATUS_COLORS value), as MUI's filled small Chip colours it. */
export function chipColorClass(color: (typeof STATUS_COLORS)[keyof typeof STATUS_COLORS]): string {
  return `DeviceRow-chip-${color}`;
}

/** The class of a signal quality's text colour, as SignalLabel colours it. */
export function signalClass(quality: SignalQuality): string {
  return `DeviceRow-signal-${quality}`;
}

const c = (name: string) => `& .${name}`;

/** The device table with the rows' styles: MUI's small body TableCell, hover TableRow, small Chip and Link. */
export const DeviceTableRoot = styled(Table)(({ theme }) => {
  const { palette, typography } = theme;
  const isLight = palette.mode === "light";
  return {
    [c(rowClasses.row)]: {
      color: "inherit",
      display: "table-row",
      verticalAlign: "middle",
      outline: 0,
      "&:hover": { backgroundColor: palette.action.hover },
    },
    [c(rowClasses.cell)]: {
      ...typography.body2,
      display: "table-cell",
      verticalAlign: "inherit",
      borderBottom: `1px solid ${
        isLight ? lighten(alpha(palette.divider, 1), 0.88) : darken(alpha(palette.divider, 1), 0.68)
      }`,
      textAlign: "left",
      // Narrower than MUI's 16 px: ten columns fit a 1280-1440 px laptop in Russian too (issue 11).
      padding: "6px 8px",
      "&:first-of-type": { paddingLeft: 16 },
      "&:last-of-type": { paddingRight: 16 },
      color: palette.text.primary,
    },
    [c(rowClasses.checkboxCell)]: {
      width: 24,
      padding: "0 12px 0 16px",
      "& > *": { padding: 0 },
    },
    [c(rowClasses.wideOnly)]: {
      [theme.breakpoints.down("md")]: { display: "none" },
    },
    [c(rowClasses.description)]: {
      maxWidth: 120,
      overflow: "hidden",
      textOverflow: "ellipsis",
      whiteSpace: "nowrap",
    },
    [c(rowClasses.ident)]: {
      color: palette.primary.main,
      fontWeight: 600,
      // An ident is one word of up to 64 characters: a long one breaks inside rather than widen the table.
      overflowWrap: "anywhere",
      textDecoration: "underline",
      textDecorationColor: alpha(palette.primary.main, 0.4),
      "&:hover": { textDecorationColor: "inherit" },
    },
    [c(rowClasses.tags)]: {
      display: "flex",
      flexDirection: "row",
      gap: theme.spacing(0.5),
      flexWrap: "wrap",
      maxWidth: 180,
    },
    [c(rowClasses.nowrap)]: { whiteSpace: "nowrap" },
    [c(rowClasses.clipped)]: {
      maxWidth: 110,
      overflow: "hidden",
      textOverflow: "ellipsis",
      whiteSpace: "nowrap",
    },
    [c(rowClasses.dot)]: {
      width: 8,
      height: 8,
      borderRadius: "50%",
      marginLeft: 7,
      marginRight: -3,
      flexShrink: 0,
    },
    [c(rowClasses.dotOn)]: { backgroundColor: palette.success.main },
    [c(rowClasses.dotOff)]: { backgroundColor: palette.error.main },
    [c(rowClasses.clock)]: { display: "block", ...typography.caption, color: palette.text.secondary },
    [c(rowClasses.statusStack)]: {
      display: "flex",
      flexDirection: "column",
      alignItems: "flex-start",
      gap: 2,
    },
    [c(rowClasses.chip)]: {
      maxWidth: "100%",
      fontFamily: typography.fontFamily,
      fontSize: typography.pxToRem(13),
      display: "inline-flex",
      alignItems: "center",
      justifyContent: "center",
      height: 24,
      lineHeight: 1.5,
      color: palette.text.primary,
      backgroundColor: palette.action.selected,
      borderRadius: 16,
      whiteSpace: "nowrap",
      verticalAlign: "middle",
      boxSizing: "border-box",
      [c(rowClasses.chipLabel)]: {
        overflow: "hidden",
        textOverflow: "ellipsis",
        whiteSpace: "nowrap",
        paddingLeft: 8,
        paddingRight: 8,
      },
    },
    [c(rowClasses.outlined)]: {
      backgroundColor: "transparent",
      border: `1px solid ${isLight ? palette.grey[400] : palette.grey[700]}`,
      [c(rowClasses.chipLabel)]: { paddingLeft: 7, paddingRight: 7 },
    },
    ...Object.fromEntries(
      (["error", "warning", "success"] as const).map((color) => [
        c(chipColorClass(color)),
        { backgroundColor: palette[color].main, color: palette[color].contrastText },
      ]),
    ),
    [c(signalClass("cellEdge"))]: { color: palette.error.main },
    [c(signalClass("midCell"))]: { color: palette.warning.main },
    [c(signalClass("normal"))]: { color: palette.info.main },
    [c(signalClass("excellent"))]: { color: palette.success.main },
    [c(signalClass("unknown"))]: { color: palette.text.secondary },
  };
});
