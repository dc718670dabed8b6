import type { RouteName } from "@cellfleet/contract";
import type { ReactNode } from "react";
import { ComingSoonPage } from "../components/ComingSoonPage";
import { DemoPage } from "../features/auth/DemoPage";
import { LoginPage } from "../features/auth/LoginPage";
import { LogoutPage } from "../features/auth/LogoutPage";
import { MonitorPage } from "../features/placeholders/MonitorPage";
import { NotFoundPage } from "../features/placeholders/NotFoundPage";
import { ProfilePage } from "../features/profile/ProfilePage";
import { RegistryPage } from "../features/registry/RegistryPage";

/** Pages that are built; every other route of the contract shows the shared coming-soon page. */
const BUILT_PAGES: Partial<Record<RouteName, ReactNode>> = {
  login: <LoginPage />,
  demo: <DemoPage />,
  logout: <LogoutPage />,
  registry: <RegistryPage />,
  profile: <ProfilePage />,
  notFound: <NotFoundPage />,
  deviceMonitor: <MonitorPage kind="deviceMonitor" />,
  passwordMonitor: <MonitorPage kind="passwordMonitor" />,
};

/** The element a route of the contract's table renders. */
export function pageFor(name: RouteName): ReactNode {
  return BUILT_PAGES[name] ?? <ComingSoonPage route={name} />;
}
