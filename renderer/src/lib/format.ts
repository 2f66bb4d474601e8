/**
 * How the studio writes numbers, credits, dates and durations: one place, one locale. The
 * locale is the browser's language until `setFormatLocale` names another (the interface's
 * language, once it can be chosen); every helper also takes a locale of its own.
 */

let currentLocale: string | undefined;

/** The locale figures are written in from now on; undefined: the browser's language again. */
export function setFormatLocale(locale: string | undefined): void {
  currentLocale = locale;
}

/** The locale in use: the one set, else the browser's language, else English. */
export function formatLocale(): string {
  if (currentLocale) return currentLocale;
  return typeof navigator !== 'undefined' && navigator.language ? navigator.language : 'en';
}

/** 1234567 → "1,234,567" (en) or "1.234.567" (vi); `digits` fixes the decimals ("1.0"). */
export function formatNumber(
  value: number,
  {
    digits,
    maxDigits = 3,
    locale = formatLocale(),
  }: { digits?: number; maxDigits?: number; locale?: string } = {},
): string {
  return value.toLocaleString(locale, {
    minimumFractionDigits: digits ?? 0,
    maximumFractionDigits: digits ?? maxDigits,
  });
}

/** Credits as the ledger keeps them: exact to 0.001, with thousands separators. */
export function formatCredits(credits: number, locale = formatLocale()): string {
  return formatNumber(credits, { maxDigits: 3, locale });
}

/** A date and time, e.g. "12 Mar 2026, 14:05" (`short`) or with seconds (`medium`); "—" for none. */
export function formatDate(
  iso: string | null,
  {
    time = 'short',
    none = '—',
    locale = formatLocale(),
  }: { time?: 'short' | 'medium'; none?: string; locale?: string } = {},
): string {
  if (!iso) return none;
  return new Date(iso).toLocaleString(locale, { dateStyle: 'medium', timeStyle: time });
}

/** A request's time, to the second; "—" for none. */
export function formatTime(iso: string | null): string {
  return formatDate(iso, { time: 'medium' });
}

/** 12_345_678 bytes → "11.8 MB" (binary multiples, the units people read). */
export function formatBytes(bytes: number, locale = formatLocale()): string {
  if (bytes < 1024) return `${formatNumber(bytes, { locale })} B`;
  if (bytes < 1024 * 1024) return `${formatNumber(bytes / 1024, { digits: 0, locale })} kB`;
  if (bytes < 1024 ** 3) return `${formatNumber(bytes / 1024 ** 2, { digits: 1, locale })} MB`;
  return `${formatNumber(bytes / 1024 ** 3, { digits: 2, locale })} GB`;
}

/** 75.3 → "1:15"; with `tenths`, "1:15.3". */
export function formatClock(seconds: number, tenths = false): string {
  const safe = Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
  const m = Math.floor(safe / 60);
  const s = safe - m * 60;
  const whole = Math.floor(s);
  const text = `${m}:${String(whole).padStart(2, '0')}`;
  return tenths ? `${text}.${Math.floor((s - whole) * 10)}` : text;
}

/**
 * Roughly: "~45 s", "~3 min", "~1 h 20 min", "~1,250 h 0 min" in English; other languages write
 * the units their own way through Intl ("~45 giây", "~1 giờ 20 phút").
 */
export function formatDuration(seconds: number, locale = formatLocale()): string {
  const english = locale.toLowerCase().startsWith('en');
  const unit = (value: number, name: 'second' | 'minute' | 'hour', short: string) =>
    english
      ? `${formatNumber(value, { locale })} ${short}`
      : new Intl.NumberFormat(locale, { style: 'unit', unit: name, unitDisplay: 'short' }).format(value);
  if (seconds < 60) return `~${unit(Math.max(0, Math.round(seconds)), 'second', 's')}`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `~${unit(minutes, 'minute', 'min')}`;
  return `~${unit(Math.floor(minutes / 60), 'hour', 'h')} ${unit(minutes % 60, 'minute', 'min')}`;
}
