/** Display helpers. */

/** 75.3 → "1:15"; with `tenths`, "1:15.3". */
export function formatClock(seconds: number, tenths = false): string {
  const safe = Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
  const m = Math.floor(safe / 60);
  const s = safe - m * 60;
  const whole = Math.floor(s);
  const text = `${m}:${String(whole).padStart(2, '0')}`;
  return tenths ? `${text}.${Math.floor((s - whole) * 10)}` : text;
}

/** Roughly: "~45 s", "~3 min", "~1 h 20 min". */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `~${Math.max(0, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `~${minutes} min`;
  return `~${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export function formatCredits(credits: number): string {
  return credits.toLocaleString('en-US', { maximumFractionDigits: 3 });
}

export function formatTime(iso: string | null): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}
