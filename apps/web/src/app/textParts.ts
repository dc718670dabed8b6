/**
 * Which texts each lazily fetched piece of the app speaks (ADR 018, round 5). Each language's texts
 * are split into parts, each a chunk of its own: `start` (the signed-out shell and pages, the menu,
 * route titles; fetched before the first render), `shell` (what the signed-in frame adds: the news
 * bell; fetched with ConsoleShell) and one part per top-level group of the console texts
 * (locales/console/<part>/). A piece is fetched together with the parts it names here, so its first
 * render shows no key; locales.test.ts walks each piece's imports and fails when it uses a key of a
 * part it does not name. bench/bundle.ts reads the same table. Plain data: no imports.
 */
export const CONSOLE_PARTS = [
  "accounting",
  "apiTokens",
  "commands",
  "dateRange",
  "deviceImport",
  "files",
  "fleet",
  "insight",
  "licenses",
  "map",
  "notifications",
  "profile",
  "registry",
  "remote",
  "schedules",
  "scripts",
  "settings",
  "software",
  "uptime",
  "zeroTouch",
] as const;
export type ConsolePart = (typeof CONSOLE_PARTS)[number];
export type TextPart = "start" | "shell" | ConsolePart;
export const TEXT_PART_NAMES: readonly TextPart[] = ["start", "shell", ...CONSOLE_PARTS];

/**
 * Piece → the parts it needs besides the start texts. The pages are routePages.tsx's `features`
 * (same names); the others are loaded with `withTexts(name, () => import(…))`.
 */
export const TEXTS_OF = {
  // The signed-in frame (router.tsx).
  consoleShell: ["shell"],
  // The login page's reset-password dialog and the e-mailed reset form (LoginPage.tsx).
  resetPasswordDialog: ["accounting"],
  resetPasswordForm: ["accounting"],
  // The login page's second step (ADR 039).
  secondFactorStep: ["profile"],
  // Pages (routePages.tsx).
  comingSoon: [],
  accounting: ["accounting"],
  domain: ["accounting", "fleet"],
  domains: ["accounting", "fleet"],
  jobs: ["accounting", "fleet"],
  logs: ["accounting", "dateRange", "fleet"],
  policies: ["accounting", "fleet"],
  policy: ["accounting"],
  manager: ["accounting", "fleet"],
  superusers: ["accounting", "fleet"],
  user: ["accounting", "fleet"],
  users: ["accounting", "fleet"],
  demo: [],
  login: [],
  logout: [],
  command: ["commands", "fleet", "insight"],
  commands: ["commands", "fleet", "insight"],
  commandNew: ["commands", "fleet"],
  reports: ["commands", "fleet", "insight"],
  uptime: ["files", "fleet", "insight", "uptime"],
  map: ["files", "fleet", "insight", "map"],
  userCommand: ["commands"],
  templates: ["fleet", "insight", "scripts"],
  scriptFiles: ["files", "fleet", "insight", "scripts"],
  dashboard: ["files", "fleet", "insight"],
  device: ["commands", "files", "fleet", "insight", "remote"],
  deviceEdit: ["fleet", "insight", "map"],
  devicesMultiple: ["files", "fleet", "insight"],
  devicesNew: ["deviceImport", "fleet", "insight"],
  events: ["commands", "files", "fleet", "insight"],
  files: ["files", "fleet", "insight", "scripts"],
  licenses: ["fleet", "licenses"],
  licenseNew: ["licenses"],
  notifications: ["accounting", "fleet", "notifications"],
  rule: ["fleet", "notifications"],
  transport: ["fleet", "notifications"],
  monitor: [],
  notFound: [],
  profile: ["apiTokens", "fleet", "profile"],
  registry: ["accounting"],
  settings: ["commands", "fleet", "schedules", "settings"],
  task: ["fleet", "schedules"],
  zeroTouch: ["fleet", "insight", "zeroTouch"],
  zeroTouchConfig: ["fleet", "zeroTouch"],
  adoption: ["fleet", "insight", "zeroTouch"],
  software: ["accounting", "fleet", "software"],
  softwareRule: ["files", "fleet", "software"],
} as const satisfies Record<string, readonly TextPart[]>;
export type TextsOf = keyof typeof TEXTS_OF;
