import CardContent from "@mui/material/CardContent";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";

/** The head of a rules card in Settings: its title and hint, and its add button beside them. */
export function RulesCardHeader({ title, hint, action }: { title: string; hint: string; action: ReactNode }) {
  return (
    <CardContent sx={{ pb: 0 }}>
      <Stack
        direction={{ xs: "column", sm: "row" }}
        spacing={{ xs: 1, sm: 2 }}
        sx={{ alignItems: { xs: "flex-start", sm: "center" }, justifyContent: "space-between" }}
      >
        <div>
          <Typography variant="h6" component="h2">
            {title}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {hint}
          </Typography>
        </div>
        {action}
      </Stack>
    </CardContent>
  );
}
