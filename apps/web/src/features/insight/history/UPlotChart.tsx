import Box from "@mui/material/Box";
import { useEffect, useRef } from "react";
import uPlot, { type AlignedData, type Options } from "uplot";
import "uplot/dist/uPlot.min.css";

interface UPlotChartProps {
  /** Everything but the width, which follows the container. */
  options: Omit<Options, "width">;
  data: AlignedData;
  testId?: string;
}

/** One uPlot canvas that fills its container's width and is rebuilt when its options change. */
export function UPlotChart({ options, data, testId }: UPlotChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const made = new uPlot({ ...options, width: Math.max(element.clientWidth, 200) }, data, element);
    chart.current = made;
    const observer = new ResizeObserver(() => {
      const width = Math.max(element.clientWidth, 200);
      if (width !== made.width) made.setSize({ width, height: made.height });
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      made.destroy();
      chart.current = null;
    };
  }, [options, data]);

  return <Box ref={container} data-testid={testId} sx={{ width: "100%", minWidth: 0 }} />;
}
