import { type BrokerAddress, deriveDeviceToken, isHexKey, PROTOCOL_TOPIC_ROOT } from "@cellfleet/contract";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import Typography from "@mui/material/Typography";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { CopyButton } from "../../../components/CopyButton";
import { buildConnectSnippet } from "./snippet";

const mono = { fontFamily: "monospace", wordBreak: "break-all" } as const;

/** The broker addresses routers connect to, each marked TLS or plain. */
export function BrokerList({ brokers }: { brokers: readonly BrokerAddress[] }) {
  const { t } = useTranslation();
  return (
    <>
      {brokers.map((address) => (
        <Stack key={address.url} direction="row" sx={{ alignItems: "center", gap: 0.5 }}>
          <Typography variant="body2" sx={mono} data-testid="broker-url">
            {address.url}
          </Typography>
          <Chip size="small" variant="outlined" label={address.is_tls ? "TLS" : t("insight.connect.plain")} />
        </Stack>
      ))}
    </>
  );
}

/**
 * The snippet to paste into a shell (one tab per broker address), with a copy button and where the
 * protocol document is. With a key just made or typed, the browser derives the token into it.
 */
export function SnippetBlock({
  ident,
  brokers,
  freshKey,
}: {
  ident: string;
  brokers: readonly BrokerAddress[];
  freshKey: string | null;
}) {
  const { t } = useTranslation();
  const [brokerIndex, setBrokerIndex] = useState(0);
  const [token, setToken] = useState<string | null>(null);
  useEffect(() => {
    setToken(null);
    // WebCrypto exists on HTTPS and localhost only; elsewhere the snippet derives the token with OpenSSL.
    if (freshKey && isHexKey(freshKey))
      deriveDeviceToken(ident, freshKey).then(setToken, () => setToken(null));
  }, [freshKey, ident]);
  const broker = brokers[Math.min(brokerIndex, brokers.length - 1)];
  if (!broker) return null;
  const snippet = buildConnectSnippet({
    ident,
    broker,
    key: freshKey,
    token,
    comments: {
      key: t("insight.connect.snippetKey"),
      token: t("insight.connect.snippetToken"),
      hello: t("insight.connect.snippetHello"),
      commands: t("insight.connect.snippetCommands"),
    },
  });
  return (
    <Box>
      <Stack direction="row" sx={{ alignItems: "center", gap: 1, flexWrap: "wrap" }}>
        <Typography variant="subtitle2" sx={{ flexGrow: 1 }}>
          {t("insight.connect.snippet")}
        </Typography>
        {brokers.length > 1 ? (
          <Tabs
            value={brokerIndex}
            onChange={(_event, next: number) => setBrokerIndex(next)}
            sx={{ minHeight: 36 }}
          >
            {brokers.map((address, index) => (
              <Tab
                key={address.url}
                value={index}
                label={address.is_tls ? "TLS" : t("insight.connect.plain")}
                sx={{ minHeight: 36 }}
              />
            ))}
          </Tabs>
        ) : null}
        <CopyButton text={snippet} label={t("insight.connect.copySnippet")} testId="copy-snippet" />
      </Stack>
      <Box
        component="pre"
        data-testid="connect-snippet"
        sx={{
          m: 0,
          mt: 1,
          p: 1.5,
          borderRadius: 1,
          bgcolor: "action.hover",
          fontSize: 12,
          overflowX: "auto",
          whiteSpace: "pre",
        }}
      >
        {snippet}
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {t("insight.connect.protocolBefore")}{" "}
        <Link href="/api/protocol.md" target="_blank" rel="noopener">
          docs/device-protocol.md
        </Link>{" "}
        {t("insight.connect.protocolAfter", { topics: `${PROTOCOL_TOPIC_ROOT}/${ident}/…` })}
      </Typography>
    </Box>
  );
}
