// Business constants and limits of spec section 9, in one place for the server and the web.
// Durations carry their unit in the name (`_MS`, `_SECONDS`, `_MINUTES`, `_DAYS`).

// --- Lists and paging ---

/** Page size of POST /api/web_actions/ (the audit log); a full page means "load more" is offered. */
export const LOG_PAGE_SIZE = 2048;
/** Page size (the default `limit`) of POST /api/events/all; a full page means "load more" is offered. */
export const EVENTS_PAGE_SIZE = 2048;
/** The logs screen loads its first page this long after it opens. */
export const LOGS_LOAD_DELAY_MS = 1000;
/** Rows per page of a list card unless the list says otherwise. */
export const DEFAULT_ROWS_PER_PAGE = 10;
/** Page sizes the paginator offers. */
export const PAGE_SIZE_OPTIONS = [10, 50, 100] as const;
/** Rows per page of the custom action types table on the settings screen. */
export const SETTINGS_ACTIONS_ROWS_PER_PAGE = 3;
/** Rows per page of the event types table on the settings screen. */
export const EVENTS_ROWS_PER_PAGE = 11;
/** The paginator shows at most this many page buttons. */
export const PAGINATOR_MAX_BUTTONS = 3;
/** How many past searches a list's search box remembers. */
export const SEARCH_HISTORY_SIZE = 5;
/** How many tag suggestions the tags input offers, most frequent first. */
export const TAG_SUGGESTIONS_LIMIT = 5;
/** How many action types the quick list keeps. */
export const QUICK_ACTIONS_LIMIT = 10;

// --- Numeric input ranges (spec section 5) ---

/** Smallest status-threshold minutes a status may have. */
export const STATUS_MINUTES_MIN = 15;
/** Largest status-threshold minutes a status may have (one week). */
export const STATUS_MINUTES_MAX = 10080;
/** Fewest saved copies a backup or journal rule may keep. */
export const COPIES_MIN = 1;
/** Most saved copies a backup or journal rule may keep. */
export const COPIES_MAX = 100;
/** Smallest value of an "integer count" field. */
export const INTEGER_COUNT_MIN = 2;
/** Largest value of an "integer count" field. */
export const INTEGER_COUNT_MAX = 100_000;
/** Smallest TCP/UDP port. */
export const PORT_MIN = 0;
/** Largest TCP/UDP port. */
export const PORT_MAX = 65535;

// --- Timings of the interface ---

/** A delete button armed by a first click deletes on a second click within this window. */
export const DELETE_CONFIRM_MS = 2000;
/** A list reloads this long after a delete. */
export const LIST_RELOAD_DELAY_MS = 1500;
/** The info-message queue shows each message for this long. */
export const MESSAGE_TIMEOUT_MS = 5000;
/** The loading bar appears when a request takes longer than this. */
export const LOADING_BAR_DELAY_MS = 1000;
/** Two clicks closer than this count as a double click. */
export const DOUBLE_CLICK_MS = 200;
/** A search box waits this long after the last keystroke before it searches. */
export const SEARCH_DEBOUNCE_MS = 150;
/** After a successful upload the page returns this long after the success message. */
export const UPLOAD_RETURN_DELAY_MS = 2000;
/** The calendar's "week" tab spans this many seconds. */
export const CALENDAR_WEEK_SECONDS = 604_800;
/** Events are refreshed this often for everyone but superusers. */
export const EVENTS_REFRESH_MS = 30_000;
/** The realtime socket reconnects after this long without an answer. */
export const SOCKET_TIMEOUT_MS = 15_000;
/** A lazily loaded chunk of the web app fails after this long. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
/** The last-action cookie is written at most this often. */
export const LAST_ACTION_COOKIE_INTERVAL_MS = 60_000;

// --- Passwords ---

/** Password length limits; they live with the password rules in policy.ts. */
export { PASSWORD_DEFAULT_MIN_LENGTH, PASSWORD_MAX_LENGTH } from "./policy";
/** The expiry banner appears when fewer than this many days of the password remain. */
export const PASSWORD_EXPIRY_WARNING_DAYS = 15;
/** The expiry banner recounts the remaining time this often. */
export const PASSWORD_BANNER_REFRESH_MS = 60_000;
/** A password cannot be changed again for this many minutes after a change. */
export const PASSWORD_CHANGE_BLOCK_MINUTES = 5;
/** {@link PASSWORD_CHANGE_BLOCK_MINUTES} in milliseconds. */
export const PASSWORD_CHANGE_BLOCK_MS = PASSWORD_CHANGE_BLOCK_MINUTES * 60_000;

// --- Time display ---

/** A moment younger than this many minutes is shown as "just now". */
export const JUST_NOW_MINUTES = 30;

// --- Files ---

/** Size units (KB, MB, ...) step by this base. */
export const SIZE_UNIT_BASE = 1024;
/** Uploads of this many bytes (25 MB) or more are rejected as too large. */
export const UPLOAD_MAX_BYTES = 25 * SIZE_UNIT_BASE * SIZE_UNIT_BASE;

// --- Text fields ---

/** Fewest characters of a tag. */
export const TAG_MIN_LENGTH = 3;
/** Most characters of a tag (the input's counter shows this). */
export const TAG_MAX_LENGTH = 25;
/** Most characters of a phone number. */
export const PHONE_MAX_LENGTH = 24;
/** Fewest digits of a phone number. */
export const PHONE_MIN_DIGITS = 3;
/** Fewest digits of a TIN. */
export const TIN_MIN_DIGITS = 9;
/** Smallest TIN value: the smallest number with {@link TIN_MIN_DIGITS} digits. */
export const TIN_MIN_VALUE = 100_000_000;
/** Length of an AES or licence key, in hexadecimal characters. */
export const KEY_HEX_LENGTH = 64;

// --- Locale, cookies and layout ---

/** Cookies are reset when the cookie-version cookie is absent or differs from this. */
export const COOKIE_VERSION = "1";
/** Interface languages. */
export const LOCALES = ["ru", "en"] as const;
/** An interface language. */
export type Locale = (typeof LOCALES)[number];
/** Zod schema of an interface language. */
/** The language used when the locale cookie is absent. */
export const DEFAULT_LOCALE: Locale = "ru";
/** Width in px of the side drawer when signed in. */
export const DRAWER_WIDTH = 290;
/** Windows narrower than this many px get the mobile layout. */
export const MOBILE_BREAKPOINT = 1281;
/** The toolbar's user caption is hidden at this window width in px or less. */
export const CAPTION_HIDDEN_MAX_WIDTH = 480;
/** The top toolbar hides after the page scrolls this many px. */
export const TOOLBAR_HIDE_SCROLL_PX = 50;
