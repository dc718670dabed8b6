import type { TooltipProps } from "@mui/material/Tooltip";
import { lazy, Suspense } from "react";

// MUI's Tooltip brings Popper (popper.js, 9 kB gzipped): fetched when a tooltip is first rendered.
const Tooltip = lazy(() => import("@mui/material/Tooltip"));

/**
 * MUI's Tooltip, fetched when first rendered: for the shell, whose tooltips (the back button) most
 * starts never show (ADR 018). Until it arrives the child renders bare.
 */
export function DeferredTooltip({ children, ...props }: TooltipProps) {
  return (
    <Suspense fallback={children}>
      <Tooltip {...props}>{children}</Tooltip>
    </Suspense>
  );
}
