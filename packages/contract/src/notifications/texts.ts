import type { Locale } from "../constants";
import type { MonitorName } from "./monitors";

// Russian and English texts of notification messages: the monitors' names and the lines a message
// is made of. The server writes messages with them in the provider's language; the web shows the
// monitors' names from here too, so no label is written twice.

/** Names of the monitors. */
export const MONITOR_LABELS: Readonly<Record<Locale, Readonly<Record<MonitorName, string>>>> = {
  ru: {
    device_connected: "Подключение устройства",
    device_event: "Новое событие устройства",
    device_status: "Изменение статуса устройства",
    user_action: "Действие пользователя с устройством",
    password_expired: "Истёк срок действия пароля",
    password_reset: "Сброс пароля",
    connect: "Нет связи с устройством",
    check_interval: "Проверка раз в N часов",
    notify_in_advance: "Заблаговременное напоминание",
    firmware_update: "Доступно обновление прошивки",
  },
  en: {
    device_connected: "Device connected",
    device_event: "New device event",
    device_status: "Device status change",
    user_action: "User action on a device",
    password_expired: "Password expired",
    password_reset: "Password reset",
    connect: "Device out of contact",
    check_interval: "Check every N hours",
    notify_in_advance: "Notify in advance",
    firmware_update: "Firmware update available",
  },
};

/** Keys of the message texts; `{…}` are filled by formatMessage. */
export type NotificationTextKey =
  | "title"
  | "opened"
  | "resolved"
  | "summary"
  | "more"
  | "countStarted"
  | "countEnded"
  | "countRepeated"
  | "digestTitle"
  | "testTitle"
  | "testText"
  | "deviceStatus"
  | "deviceStatusResolved"
  | "connectLost"
  | "connectResolved"
  | "deviceConnected"
  | "deviceEvent"
  | "userAction"
  | "passwordExpired"
  | "passwordReset"
  | "passwordExpires"
  | "licenseExpires"
  | "firmwareUpdate"
  | "repeats"
  | "digestLine"
  | "status.critical"
  | "status.warning"
  | "status.online"
  | "status.pending"
  | "action.edit"
  | "action.delete"
  | "action.command"
  | "action.any";

/** The texts, per language. */
export const NOTIFICATION_TEXTS: Readonly<Record<Locale, Readonly<Record<NotificationTextKey, string>>>> = {
  ru: {
    title: "{rule}: {summary}",
    opened: "Началось ({count}):",
    resolved: "Завершилось ({count}):",
    summary: "Повторялось ({count}):",
    more: "… и ещё {count}",
    countStarted: "началось {count}",
    countEnded: "завершилось {count}",
    countRepeated: "повторялось {count}",
    digestTitle: "{rule}: устройств в статусе «{status}» и хуже: {count}",
    testTitle: "Проверка канала «{name}»",
    testText: "Это проверочное сообщение Cellfleet. Канал уведомлений настроен верно.",
    deviceStatus: "{device}: статус «{status}»",
    deviceStatusResolved: "{device}: снова «{status}» (проблема длилась {duration})",
    connectLost: "{device}: нет связи больше {minutes} мин",
    connectResolved: "{device}: связь восстановлена (не было {duration})",
    deviceConnected: "{device}: подключилось",
    deviceEvent: "{device}: {level} {kind}: {message}",
    userAction: "{device}: {author} — {action}",
    passwordExpired: "Пароль пользователя {user} истёк",
    passwordReset: "Пароль пользователя {user} сброшен",
    passwordExpires: "Пароль пользователя {user} истекает {date}",
    licenseExpires: "Лицензия {license} истекает {date}",
    firmwareUpdate: "{device}: доступна прошивка {version}",
    repeats: "{line} — ещё {count} раз(а)",
    digestLine: "{device}: «{status}», последняя связь {date}",
    "status.critical": "критический",
    "status.warning": "предупреждение",
    "status.online": "в сети",
    "status.pending": "ожидание",
    "action.edit": "изменение",
    "action.delete": "удаление",
    "action.command": "команда",
    "action.any": "действие",
  },
  en: {
    title: "{rule}: {summary}",
    opened: "Started ({count}):",
    resolved: "Ended ({count}):",
    summary: "Repeated ({count}):",
    more: "… and {count} more",
    countStarted: "{count} started",
    countEnded: "{count} ended",
    countRepeated: "{count} repeated",
    digestTitle: "{rule}: {count} devices {status} or worse",
    testTitle: "Test of the provider \u201c{name}\u201d",
    testText: "This is a Cellfleet test message. The notification provider works.",
    deviceStatus: "{device}: status {status}",
    deviceStatusResolved: "{device}: {status} again (the problem lasted {duration})",
    connectLost: "{device}: no contact for more than {minutes} min",
    connectResolved: "{device}: in contact again (silent for {duration})",
    deviceConnected: "{device}: connected",
    deviceEvent: "{device}: {level} {kind}: {message}",
    userAction: "{device}: {author} — {action}",
    passwordExpired: "The password of {user} has expired",
    passwordReset: "The password of {user} was reset",
    passwordExpires: "The password of {user} expires {date}",
    licenseExpires: "Licence {license} expires {date}",
    firmwareUpdate: "{device}: firmware {version} is available",
    repeats: "{line} — {count} more time(s)",
    digestLine: "{device}: {status}, last contact {date}",
    "status.critical": "critical",
    "status.warning": "warning",
    "status.online": "online",
    "status.pending": "pending",
    "action.edit": "edit",
    "action.delete": "delete",
    "action.command": "command",
    "action.any": "action",
  },
};

/** Short words for durations, per language. */
export const DURATION_UNITS: Readonly<Record<Locale, { d: string; h: string; min: string; s: string }>> = {
  ru: { d: "д", h: "ч", min: "мин", s: "с" },
  en: { d: "d", h: "h", min: "min", s: "s" },
};
