import type { Locale, SignalQuality } from "@cellfleet/contract";

/** The language a PDF report is written in: the requesting person's, or a mail rule's. */
export type ReportLanguage = Locale;

/** The words of the PDF report, in each language (the PDF is made on the server, not in the web's locales). */
export interface ReportTexts {
  title: string;
  scope: { domain: string; tag: string; device: string };
  month: string;
  timeZone: string;
  made: string;
  columns: {
    router: string;
    connected: string;
    outages: string;
    longest: string;
    down: string;
    backupSim: string;
    signal: string;
    data: string;
    firmware: string;
  };
  total: (routers: number) => string;
  pending: string;
  signal: Record<SignalQuality, string>;
  hours: string;
  minutes: string;
  units: readonly string[];
  note: string;
  mailSubject: (month: string, scope: string) => string;
  mailText: (month: string, scope: string) => string;
}

const EN: ReportTexts = {
  title: "Uptime report",
  scope: { domain: "All routers", tag: "Tag", device: "Router" },
  month: "Month",
  timeZone: "Time zone",
  made: "Made",
  columns: {
    router: "Router",
    connected: "Connected",
    outages: "Outages",
    longest: "Longest",
    down: "Down in all",
    backupSim: "Backup SIM",
    signal: "Signal",
    data: "Data per SIM (down / up)",
    firmware: "Firmware changes",
  },
  total: (routers) => `All ${routers} routers`,
  pending: "no report yet",
  signal: {
    excellent: "excellent",
    normal: "normal",
    midCell: "mid cell",
    cellEdge: "cell edge",
    unknown: "unknown",
  },
  hours: "h",
  minutes: "min",
  units: ["B", "KB", "MB", "GB", "TB"],
  note: "Connected time is the time observed less the outages recorded between two contacts of a router. Routers that never reported are not counted in the totals.",
  mailSubject: (month, scope) => `Uptime report ${month}: ${scope}`,
  mailText: (month, scope) => `The uptime report for ${month} (${scope}) is attached as a PDF.`,
};

const RU: ReportTexts = {
  title: "Отчёт о доступности",
  scope: { domain: "Все маршрутизаторы", tag: "Тег", device: "Маршрутизатор" },
  month: "Месяц",
  timeZone: "Часовой пояс",
  made: "Составлен",
  columns: {
    router: "Маршрутизатор",
    connected: "На связи",
    outages: "Перерывы",
    longest: "Самый долгий перерыв",
    down: "Всего без связи",
    backupSim: "На резервной SIM",
    signal: "Сигнал",
    data: "Трафик по SIM (приём / передача)",
    firmware: "Смены прошивки",
  },
  total: (routers) => `Все маршрутизаторы: ${routers}`,
  pending: "ещё не выходил на связь",
  signal: {
    excellent: "отличный",
    normal: "нормальный",
    midCell: "середина соты",
    cellEdge: "край соты",
    unknown: "неизвестно",
  },
  hours: "ч",
  minutes: "мин",
  units: ["Б", "КБ", "МБ", "ГБ", "ТБ"],
  note: "Время на связи — наблюдаемое время за вычетом перерывов, записанных между двумя выходами маршрутизатора на связь. Маршрутизаторы, ни разу не выходившие на связь, в итог не входят.",
  mailSubject: (month, scope) => `Отчёт о доступности за ${month}: ${scope}`,
  mailText: (month, scope) => `Отчёт о доступности за ${month} (${scope}) — во вложении, в PDF.`,
};

/** The report's words in a language. */
export function reportTexts(language: ReportLanguage): ReportTexts {
  return language === "ru" ? RU : EN;
}
