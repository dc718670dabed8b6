import type { RouteName } from "@cellfleet/contract";
import { type ComponentType, lazy, type ReactNode } from "react";
import { withTexts } from "./i18n";
import { PageSuspense } from "./loading/PagePending";
import { MuiScope } from "./MuiScope";

/**
 * Every page is its own chunk, fetched when its route is first shown: /login loads the shell and the
 * login form, not the device pages (issue 11; budgets checked by bench/bundle.test.ts). A page is
 * fetched together with the parts of the texts it speaks, named in textParts.ts under the same name
 * as here (ADR 018).
 */
function page<F extends Feature, K extends keyof Loaded<F>>(feature: F, name: K) {
  return lazy(async () => {
    const module = await withTexts(feature, features[feature] as () => Promise<Loaded<F>>);
    return { default: module[name] as ComponentType<Record<string, unknown>> };
  });
}

const features = {
  comingSoon: () => import("../components/ComingSoonPage"),
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
  command: () => import("../features/commands/CommandPage"),
  commands: () => import("../features/commands/CommandsPage"),
  commandNew: () => import("../features/commands/NewCommandPage"),
  reports: () => import("../features/commands/ReportPages"),
  uptime: () => import("../features/uptime/UptimePage"),
  map: () => import("../features/map/MapPage"),
  userCommand: () => import("../features/commands/UserCommandPage"),
  templates: () => import("../features/commands/scripts/ScriptRoutes"),
  scriptFiles: () => import("../features/commands/scripts/ScriptsPages"),
  dashboard: () => import("../features/devices/DashboardPage"),
  device: () => import("../features/devices/DevicePage"),
  deviceEdit: () => import("../features/devices/EditDevicePage"),
  devicesMultiple: () => import("../features/devices/MultipleDevicesPage"),
  devicesNew: () => import("../features/devices/NewDevicesPage"),
  events: () => import("../features/events/EventsPage"),
  files: () => import("../features/files/FilePages"),
  licenses: () => import("../features/licenses/LicensesPage"),
  licenseNew: () => import("../features/licenses/LicenseNewPage"),
  notifications: () => import("../features/notifications/NotificationsPage"),
  rule: () => import("../features/notifications/RulePage"),
  transport: () => import("../features/notifications/TransportPage"),
  monitor: () => import("../features/placeholders/MonitorPage"),
  notFound: () => import("../features/placeholders/NotFoundPage"),
  profile: () => import("../features/profile/ProfilePage"),
  registry: () => import("../features/registry/RegistryPage"),
  settings: () => import("../features/settings/SettingsPage"),
  task: () => import("../features/settings/schedules/ScheduleRulePage"),
  zeroTouch: () => import("../features/zerotouch/ZeroTouchPage"),
  zeroTouchConfig: () => import("../features/zerotouch/ConfigPage"),
  adoption: () => import("../features/zerotouch/AdoptionPage"),
  software: () => import("../features/software/SoftwarePage"),
  softwareRule: () => import("../features/software/SoftwareRulePage"),
};

type Feature = keyof typeof features;
type Loaded<F extends Feature> = Awaited<ReturnType<(typeof features)[F]>>;

const ComingSoonPage = page("comingSoon", "ComingSoonPage");

const Pages = {
  ZeroTouchPage: page("zeroTouch", "ZeroTouchPage"),
  ZeroTouchConfigPage: page("zeroTouchConfig", "ZeroTouchConfigPage"),
  AdoptionPage: page("adoption", "AdoptionPage"),
  AccountingPage: page("accounting", "AccountingPage"),
  DomainNewPage: page("domain", "DomainNewPage"),
  DomainPage: page("domain", "DomainPage"),
  DomainsPage: page("domains", "DomainsPage"),
  JobsPage: page("jobs", "JobsPage"),
  LogsPage: page("logs", "LogsPage"),
  PoliciesPage: page("policies", "PoliciesPage"),
  PolicyPage: page("policy", "PolicyPage"),
  DomainAdminPage: page("manager", "DomainAdminPage"),
  SuperuserPage: page("manager", "SuperuserPage"),
  SuperusersPage: page("superusers", "SuperusersPage"),
  UserPage: page("user", "UserPage"),
  UsersPage: page("users", "UsersPage"),
  DemoPage: page("demo", "DemoPage"),
  LoginPage: page("login", "LoginPage"),
  LogoutPage: page("logout", "LogoutPage"),
  CommandPage: page("command", "CommandPage"),
  CommandsPage: page("commands", "CommandsPage"),
  NewCommandPage: page("commandNew", "NewCommandPage"),
  ReportPage: page("reports", "ReportPage"),
  ReportsPage: page("reports", "ReportsPage"),
  UptimePage: page("uptime", "UptimePage"),
  MapPage: page("map", "MapPage"),
  UserCommandPage: page("userCommand", "UserCommandPage"),
  TemplatePage: page("templates", "TemplatePage"),
  TemplatesPage: page("templates", "TemplatesPage"),
  DashboardPage: page("dashboard", "DashboardPage"),
  DevicePage: page("device", "DevicePage"),
  EditDevicePage: page("deviceEdit", "EditDevicePage"),
  MultipleDevicesPage: page("devicesMultiple", "MultipleDevicesPage"),
  NewDevicesPage: page("devicesNew", "NewDevicesPage"),
  EventsPage: page("events", "EventsPage"),
  FileRoutePage: page("files", "FileRoutePage"),
  FileUploadPage: page("files", "FileUploadPage"),
  FirmwaresPage: page("files", "FirmwaresPage"),
  PackagesPage: page("files", "PackagesPage"),
  ScriptRoutePage: page("scriptFiles", "ScriptRoutePage"),
  ScriptsFilesPage: page("scriptFiles", "ScriptsFilesPage"),
  LicensesPage: page("licenses", "LicensesPage"),
  LicenseNewPage: page("licenseNew", "LicenseNewPage"),
  NotificationsPage: page("notifications", "NotificationsPage"),
  RulePage: page("rule", "RulePage"),
  TransportPage: page("transport", "TransportPage"),
  MonitorPage: page("monitor", "MonitorPage"),
  NotFoundPage: page("notFound", "NotFoundPage"),
  ProfilePage: page("profile", "ProfilePage"),
  RegistryPage: page("registry", "RegistryPage"),
  SettingsPage: page("settings", "SettingsPage"),
  ScheduleRulePage: page("task", "ScheduleRulePage"),
  SoftwarePage: page("software", "SoftwarePage"),
  SoftwareNewPage: page("softwareRule", "SoftwareNewPage"),
  SoftwareRulePage: page("softwareRule", "SoftwareRulePage"),
};

/** Pages that are built; every other route of the contract shows the shared coming-soon page. */
const BUILT_PAGES: Partial<Record<RouteName, ReactNode>> = {
  login: <Pages.LoginPage />,
  demo: <Pages.DemoPage />,
  logout: <Pages.LogoutPage />,
  registry: <Pages.RegistryPage />,
  profile: <Pages.ProfilePage />,
  settings: <Pages.SettingsPage />,
  task: <Pages.ScheduleRulePage />,
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
  licenses: <Pages.LicensesPage />,
  licenseNew: <Pages.LicenseNewPage />,
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
  commands: <Pages.CommandsPage />,
  commandNew: <Pages.NewCommandPage />,
  command: <Pages.CommandPage />,
  reports: <Pages.ReportsPage />,
  report: <Pages.ReportPage />,
  uptime: <Pages.UptimePage />,
  map: <Pages.MapPage />,
  userCommand: <Pages.UserCommandPage />,
  templates: <Pages.TemplatesPage />,
  templateNew: <Pages.TemplatePage />,
  template: <Pages.TemplatePage />,
  zeroTouch: <Pages.ZeroTouchPage />,
  zeroTouchConfig: <Pages.ZeroTouchConfigPage />,
  adoption: <Pages.AdoptionPage />,
  software: <Pages.SoftwarePage />,
  softwareNew: <Pages.SoftwareNewPage />,
  softwareEdit: <Pages.SoftwareRulePage />,
};

/** The pages in plain markup (ADR 018, round 4): the signed-out shell shows them without MUI. */
const PLAIN_PAGES: ReadonlySet<RouteName> = new Set(["login", "demo", "logout"]);

/**
 * The element a route of the contract's table renders; a page still being fetched shows the loading
 * bar after a second.
 * A page built with MUI gets the console's providers around it where the signed-out shell shows it.
 */
export function pageFor(name: RouteName): ReactNode {
  const element = BUILT_PAGES[name] ?? <ComingSoonPage route={name} />;
  if (PLAIN_PAGES.has(name)) return <PageSuspense>{element}</PageSuspense>;
  return (
    <MuiScope>
      <PageSuspense>{element}</PageSuspense>
    </MuiScope>
  );
}
