import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Switch from "@mui/material/Switch";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { QueryState } from "../../../components/QueryState";
import { eventTypesQueryOptions, useSetEventTypeActive } from "../settings.queries";

/**
 * The event types with their active switch (spec sections 2 and 3): a switched-off type's events
 * are still kept and listed, but raise no 'new' badge and no notification. The switch saves at once.
 */
export function EventTypesCard({ isReadOnly }: { isReadOnly: boolean }) {
  const { t } = useTranslation();
  const query = useQuery(eventTypesQueryOptions());
  const toggle = useSetEventTypeActive();
  return (
    <Card data-testid="event-types">
      <CardContent sx={{ pb: 0 }}>
        <Typography variant="h6" component="h2">
          {t("settings.eventTypes.title")}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t("settings.eventTypes.hint")}
        </Typography>
      </CardContent>
      <QueryState query={query} isInset>
        {(items) => (
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{t("settings.eventTypes.type")}</TableCell>
                <TableCell align="right">{t("settings.eventTypes.active")}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {items.map((item) => {
                const label = t(`fleet.eventKinds.${item.type}`, { defaultValue: item.type });
                const isPending = toggle.isPending && toggle.variables?.id === item._id;
                return (
                  <TableRow key={item._id} data-testid={`event-type-${item._id}`}>
                    <TableCell>{label}</TableCell>
                    <TableCell align="right" sx={{ py: 0 }}>
                      <Switch
                        checked={isPending ? Boolean(toggle.variables?.active) : item.active}
                        disabled={isReadOnly || isPending}
                        onChange={(event) => toggle.mutate({ id: item._id, active: event.target.checked })}
                        slotProps={{ input: { "aria-label": label } }}
                      />
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
      </QueryState>
    </Card>
  );
}
