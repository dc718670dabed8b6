import type { RouteName } from "@cellfleet/contract";
import type { ReactNode } from "react";
import { ComingSoonPage } from "../components/ComingSoonPage";
import { AccountingPage } from "../features/accounting/AccountingPage";
import { DomainNewPage, DomainPage } from "../features/accounting/domains/DomainPage";
import { DomainsPage } from "../features/accounting/domains/DomainsPage";
import { JobsPage } from "../features/accounting/jobs/JobsPage";
import { LogsPage } from "../features/accounting/logs/LogsPage";
import { PoliciesPage } from "../features/accounting/policies/PoliciesPage";
import { PolicyPage } from "../features/accounting/policies/PolicyPage";
import { DomainAdminPage, SuperuserPage } from "../features/accounting/superusers/ManagerPage";
import { SuperusersPage } from "../features/accounting/superusers/SuperusersPage";
import { UserPage } from "../features/accounting/users/UserPage";
import { UsersPage } from "../features/accounting/users/UsersPage";
import { DemoPage } from "../features/auth/DemoPage";
import { LoginPage } from "../features/auth/LoginPage";
import { LogoutPage } from "../features/auth/LogoutPage";
import { DashboardPage } from "../features/devices/DashboardPage";
import { DevicePage } from "../features/devices/DevicePage";
import { EditDevicePage } from "../features/devices/EditDevicePage";
import { MultipleDevicesPage } from "../features/devices/MultipleDevicesPage";
import { NewDevicesPage } from "../features/devices/NewDevicesPage";
import { EventsPage } from "../features/events/EventsPage";
import {
  FileRoutePage,
  FileUploadPage,
  FirmwaresPage,
  PackagesPage,
  ScriptRoutePage,
  ScriptsFilesPage,
} from "../features/files/FilePages";
import { NotificationsPage } from "../features/notifications/NotificationsPage";
import { RulePage } from "../features/notifications/RulePage";
import { TransportPage } from "../features/notifications/TransportPage";
import { MonitorPage } from "../features/placeholders/MonitorPage";
import { NotFoundPage } from "../features/placeholders/NotFoundPage";
import { ProfilePage } from "../features/profile/ProfilePage";
import { RegistryPage } from "../features/registry/RegistryPage";
import { SettingsPage } from "../features/settings/SettingsPage";

/** Pages that are built; every other route of the contract shows the shared coming-soon page. */
const BUILT_PAGES: Partial<Record<RouteName, ReactNode>> = {
  login: <LoginPage />,
  demo: <DemoPage />,
  logout: <LogoutPage />,
  registry: <RegistryPage />,
  profile: <ProfilePage />,
  settings: <SettingsPage />,
  notFound: <NotFoundPage />,
  deviceMonitor: <MonitorPage kind="deviceMonitor" />,
  passwordMonitor: <MonitorPage kind="passwordMonitor" />,
  accounting: <AccountingPage />,
  domains: <DomainsPage />,
  domainNew: <DomainNewPage />,
  domain: <DomainPage />,
  domainAdmin: <DomainAdminPage />,
  superusers: <SuperusersPage />,
  superuser: <SuperuserPage />,
  users: <UsersPage />,
  user: <UserPage />,
  policies: <PoliciesPage />,
  policy: <PolicyPage />,
  logs: <LogsPage />,
  jobs: <JobsPage />,
  dashboard: <DashboardPage />,
  device: <DevicePage />,
  deviceEdit: <EditDevicePage />,
  devicesNew: <NewDevicesPage />,
  devicesMultiple: <MultipleDevicesPage />,
  events: <EventsPage />,
  notifications: <NotificationsPage />,
  notificationRule: <RulePage />,
  transportNew: <TransportPage />,
  transportEdit: <TransportPage />,
  scripts: <ScriptsFilesPage />,
  script: <ScriptRoutePage />,
  packages: <PackagesPage />,
  packageNew: <FileUploadPage fileType="package" />,
  package: <FileRoutePage fileType="package" />,
  firmwares: <FirmwaresPage />,
  firmwareNew: <FileUploadPage fileType="firmware" />,
  firmware: <FileRoutePage fileType="firmware" />,
};

/** The element a route of the contract's table renders. */
export function pageFor(name: RouteName): ReactNode {
  return BUILT_PAGES[name] ?? <ComingSoonPage route={name} />;
}
