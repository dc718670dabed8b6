import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { PageTitle } from "../../components/PageTitle";
import { DeliveryLogTab } from "./components/DeliveryLogTab";
import { RulesTab } from "./components/RulesTab";
import { TransportsTab } from "./components/TransportsTab";
import { useNotificationsLive } from "./news.queries";

const TABS = ["rules", "transports", "log"] as const;
type TabName = (typeof TABS)[number];

/** /notifications: the rules, the providers and the delivery log, each a tab kept in the address. */
export function NotificationsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const requested = params.get("tab");
  const tab: TabName = (TABS as readonly string[]).includes(requested ?? "")
    ? (requested as TabName)
    : "rules";
  useNotificationsLive();
  return (
    <>
      <PageTitle>{t("routes.notifications")}</PageTitle>
      <Tabs
        value={tab}
        onChange={(_event, next: TabName) =>
          setParams(next === "rules" ? {} : { tab: next }, { replace: true })
        }
        variant="scrollable"
        allowScrollButtonsMobile
        sx={{ mb: 2 }}
      >
        {TABS.map((name) => (
          <Tab key={name} value={name} label={t(`notifications.tabs.${name}`)} data-testid={`tab-${name}`} />
        ))}
      </Tabs>
      {tab === "rules" ? <RulesTab /> : tab === "transports" ? <TransportsTab /> : <DeliveryLogTab />}
    </>
  );
}
