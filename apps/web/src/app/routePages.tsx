import type { RouteName } from "@cellfleet/contract";
import { type ComponentType, lazy, type ReactNode, Suspense } from "react";
import { ComingSoonPage } from "../components/ComingSoonPage";

/**
 * Every page is its own chunk, fetched when its route is first shown: /login loads the shell and the
 * login form, not the device pages (issue 11; budgets checked by bench/bundle.test.ts).
 */
function page<M, K extends keyof M>(load: () => Promise<M>, name: K) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType<Record<string, unknown>> }));
}

const features = {
  accounting: () => import("../features/accounting/AccountingPage"),
  domain: () => import("../features/accounting/domains/DomainPage"),
  domains: () => import("../features/accounting/domains/DomainsPage"),
  jobs: () => import("../features/accounting/jobs/JobsPage"),
  logs: () => import("../features/accounting/logs/LogsPage"),
  policies: () => import("../features/accounting/policies/PoliciesPage"),
  policy: () => import("../features/accounting/policies/PolicyPage"),
  manager: () => import("../features/accounting/superusers/ManagerPage"),
  superusers: () => import("../features/accounting/superusers/SuperusersPage"),
  user: () => import("../features/accounting/users/UserPage"),
  users: () => import("../features/accounting/users/UsersPage"),
  demo: () => import("../features/auth/DemoPage"),
  login: () => import("../features/auth/LoginPage"),
  logout: () => import("../features/auth/LogoutPage"),
  dashboard: () => import("../features/devices/DashboardPage"),
  device: () => import("../features/devices/DevicePage"),
  deviceEdit: () => import("../features/devices/EditDevicePage"),
  devicesMultiple: () => import("../features/devices/MultipleDevicesPage"),
  devicesNew: () => import("../features/devices/NewDevicesPage"),
  events: () => import("../features/events/EventsPage"),
  files: () => import("../features/files/FilePages"),
  notifications: () => import("../features/notifications/NotificationsPage"),
  rule: () => import("../features/notifications/RulePage"),
  transport: () => import("../features/notifications/TransportPage"),
  monitor: () => import("../features/placeholders/MonitorPage"),
  notFound: () => import("../features/placeholders/NotFoundPage"),
  profile: () => import("../features/profile/ProfilePage"),
  registry: () => import("../features/registry/RegistryPage"),
};

const Pages = {
  AccountingPage: page(features.accounting, "AccountingPage"),
  DomainNewPage: page(features.domain, "DomainNewPage"),
  DomainPage: page(features.domain, "DomainPage"),
  DomainsPage: page(features.domains, "DomainsPage"),
  JobsPage: page(features.jobs, "JobsPage"),
  LogsPage: page(features.logs, "LogsPage"),
  PoliciesPage: page(features.policies, "PoliciesPage"),
  PolicyPage: page(features.policy, "PolicyPage"),
  DomainAdminPage: page(features.manager, "DomainAdminPage"),
  SuperuserPage: page(features.manager, "SuperuserPage"),
  SuperusersPage: page(features.superusers, "SuperusersPage"),
  UserPage: page(features.user, "UserPage"),
  UsersPage: page(features.users, "UsersPage"),
  DemoPage: page(features.demo, "DemoPage"),
  LoginPage: page(features.login, "LoginPage"),
  LogoutPage: page(features.logout, "LogoutPage"),
  DashboardPage: page(features.dashboard, "DashboardPage"),
  DevicePage: page(features.device, "DevicePage"),
  EditDevicePage: page(features.deviceEdit, "EditDevicePage"),
  MultipleDevicesPage: page(features.devicesMultiple, "MultipleDevicesPage"),
  NewDevicesPage: page(features.devicesNew, "NewDevicesPage"),
  EventsPage: page(features.events, "EventsPage"),
  FileRoutePage: page(features.files, "FileRoutePage"),
  FileUploadPage: page(features.files, "FileUploadPage"),
  FirmwaresPage: page(features.files, "FirmwaresPage"),
  PackagesPage: page(features.files, "PackagesPage"),
  ScriptRoutePage: page(features.files, "ScriptRoutePage"),
  ScriptsFilesPage: page(features.files, "ScriptsFilesPage"),
  NotificationsPage: page(features.notifications, "NotificationsPage"),
  RulePage: page(features.rule, "RulePage"),
  TransportPage: page(features.transport, "TransportPage"),
  MonitorPage: page(features.monitor, "MonitorPage"),
  NotFoundPage: page(features.notFound, "NotFoundPage"),
  ProfilePage: page(features.profile, "ProfilePage"),
  RegistryPage: page(features.registry, "RegistryPage"),
};

/** Pages that are built; every other route of the contract shows the shared coming-soon page. */
const BUILT_PAGES: Partial<Record<RouteName, ReactNode>> = {
  login: <Pages.LoginPage />,
  demo: <Pages.DemoPage />,
  logout: <Pages.LogoutPage />,
  registry: <Pages.RegistryPage />,
  profile: <Pages.ProfilePage />,
  notFound: <Pages.NotFoundPage />,
  deviceMonitor: <Pages.MonitorPage kind="deviceMonitor" />,
  passwordMonitor: <Pages.MonitorPage kind="passwordMonitor" />,
  accounting: <Pages.AccountingPage />,
  domains: <Pages.DomainsPage />,
  domainNew: <Pages.DomainNewPage />,
  domain: <Pages.DomainPage />,
  domainAdmin: <Pages.DomainAdminPage />,
  superusers: <Pages.SuperusersPage />,
  superuser: <Pages.SuperuserPage />,
  users: <Pages.UsersPage />,
  user: <Pages.UserPage />,
  policies: <Pages.PoliciesPage />,
  policy: <Pages.PolicyPage />,
  logs: <Pages.LogsPage />,
  jobs: <Pages.JobsPage />,
  dashboard: <Pages.DashboardPage />,
  device: <Pages.DevicePage />,
  deviceEdit: <Pages.EditDevicePage />,
  devicesNew: <Pages.NewDevicesPage />,
  devicesMultiple: <Pages.MultipleDevicesPage />,
  events: <Pages.EventsPage />,
  notifications: <Pages.NotificationsPage />,
  notificationRule: <Pages.RulePage />,
  transportNew: <Pages.TransportPage />,
  transportEdit: <Pages.TransportPage />,
  scripts: <Pages.ScriptsFilesPage />,
  script: <Pages.ScriptRoutePage />,
  packages: <Pages.PackagesPage />,
  packageNew: <Pages.FileUploadPage fileType="package" />,
  package: <Pages.FileRoutePage fileType="package" />,
  firmwares: <Pages.FirmwaresPage />,
  firmwareNew: <Pages.FileUploadPage fileType="firmware" />,
  firmware: <Pages.FileRoutePage fileType="firmware" />,
};

/** The element a route of the contract's table renders; a page still being fetched shows nothing. */
export function pageFor(name: RouteName): ReactNode {
  const element = BUILT_PAGES[name];
  if (!element) return <ComingSoonPage route={name} />;
  return <Suspense fallback={null}>{element}</Suspense>;
}
