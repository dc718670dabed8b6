import { isHexKey, isProtocolIdent } from "@cellfleet/contract";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { brokersQueryOptions } from "../insight.queries";
import { BrokerList, SnippetBlock } from "./SnippetBlock";

/**
 * What the router being created will need, beside the create form: the broker's addresses, and the
 * snippet with the ident and key as they are typed or generated (the device page shows it again).
 */
export function ConnectPreview({ ident, aesKey }: { ident: string; aesKey: string }) {
  const { t } = useTranslation();
  const brokers = useQuery(brokersQueryOptions());
  const key = aesKey.trim();
  const name = isProtocolIdent(ident.trim()) ? ident.trim() : "<ident>";
  return (
    <Card variant="outlined" data-testid="connect-preview">
      <CardContent>
        <Stack spacing={1.5}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {t("insight.connect.previewTitle")}
          </Typography>
          <Box>
            <Typography variant="caption" color="text.secondary">
              {t("insight.connect.broker")}
            </Typography>
            {brokers.data ? <BrokerList brokers={brokers.data} /> : null}
          </Box>
          {brokers.data ? (
            <SnippetBlock
              ident={name}
              brokers={brokers.data}
              freshKey={isHexKey(key) ? key.toUpperCase() : null}
            />
          ) : null}
        </Stack>
      </CardContent>
    </Card>
  );
}
