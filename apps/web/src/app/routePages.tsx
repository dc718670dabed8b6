import type { RouteName } from "@cellfleet/contract";
import { type ComponentType, lazy, type ReactNode, Suspense } from "react";
import { loadConsoleTexts } from "./i18n";
import { MuiScope } from "./MuiScope";

/**
 * Every page is its own chunk, fetched when its route is first shown: /login loads the shell and the
 * login form, not the device pages (issue 11; budgets checked by bench/bundle.test.ts). A page is
 * fetched together with the console texts (i18n.ts) unless it says only what the start texts hold.
 */
function page<M, K extends keyof M>(load: () => Promise<M>, name: K, texts: "start" | "console" = "console") {
  return lazy(async () => {
    const [module] = await Promise.all([load(), texts === "console" ? loadConsoleTexts() : undefined]);
    return { default: module[name] as ComponentType<Record<string, unknown>> };
  });
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
  command: () => import("../features/commands/CommandPage"),
  commands: () => import("../features/commands/CommandsPage"),
  commandNew: () => import("../features/commands/NewCommandPage"),
  reports: () => import("../features/commands/ReportPages"),
  userCommand: () => import("../features/commands/UserCommandPage"),
  templates: () => import("../features/commands/scripts/ScriptRoutes"),
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
  task: () => import("../features/schedules/ScheduleRulePage"),
  zeroTouch: () => import("../features/zerotouch/ZeroTouchPage"),
  zeroTouchConfig: () => import("../features/zerotouch/ConfigPage"),
  adoption: () => import("../features/zerotouch/AdoptionPage"),
  software: () => import("../features/software/SoftwarePage"),
  softwareRule: () => import("../features/software/SoftwareRulePage"),
};

const ComingSoonPage = page(() => import("../components/ComingSoonPage"), "ComingSoonPage");

const Pages = {
  ZeroTouchPage: page(features.zeroTouch, "ZeroTouchPage"),
  ZeroTouchConfigPage: page(features.zeroTouchConfig, "ZeroTouchConfigPage"),
  AdoptionPage: page(features.adoption, "AdoptionPage"),
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
  DemoPage: page(features.demo, "DemoPage", "start"),
  LoginPage: page(features.login, "LoginPage", "start"),
  LogoutPage: page(features.logout, "LogoutPage", "start"),
  CommandPage: page(features.command, "CommandPage"),
  CommandsPage: page(features.commands, "CommandsPage"),
  NewCommandPage: page(features.commandNew, "NewCommandPage"),
  ReportPage: page(features.reports, "ReportPage"),
  ReportsPage: page(features.reports, "ReportsPage"),
  UserCommandPage: page(features.userCommand, "UserCommandPage"),
  TemplatePage: page(features.templates, "TemplatePage"),
  TemplatesPage: page(features.templates, "TemplatesPage"),
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
  LicensesPage: page(features.licenses, "LicensesPage"),
  LicenseNewPage: page(features.licenseNew, "LicenseNewPage"),
  NotificationsPage: page(features.notifications, "NotificationsPage"),
  RulePage: page(features.rule, "RulePage"),
  TransportPage: page(features.transport, "TransportPage"),
  MonitorPage: page(features.monitor, "MonitorPage"),
  NotFoundPage: page(features.notFound, "NotFoundPage"),
  ProfilePage: page(features.profile, "ProfilePage"),
  RegistryPage: page(features.registry, "RegistryPage"),
  SettingsPage: page(features.settings, "SettingsPage"),
  ScheduleRulePage: page(features.task, "ScheduleRulePage"),
  SoftwarePage: page(features.software, "SoftwarePage"),
  SoftwareNewPage: page(features.softwareRule, "SoftwareNewPage"),
  SoftwareRulePage: page(features.softwareRule, "SoftwareRulePage"),
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
 * The element a route of the contract's table renders; a page still being fetched shows nothing.
 * A page built with MUI gets the console's providers around it where the signed-out shell shows it.
 */
export function pageFor(name: RouteName): ReactNode {
  const element = BUILT_PAGES[name] ?? <ComingSoonPage route={name} />;
  if (PLAIN_PAGES.has(name)) return <Suspense fallback={null}>{element}</Suspense>;
  return (
    <MuiScope>
      <Suspense fallback={null}>{element}</Suspense>
    </MuiScope>
  );
}
