/** Minimal logger: the CLI prints to stderr, the desktop shell to its rotating log, tests stay quiet. */
export interface Log {
  info(message: string): void;
  warn(message: string): void;
}

export const silentLog: Log = { info: () => {}, warn: () => {} };

/** Info lines as they are, warnings prefixed "warning: ", both on standard error. */
export const stderrLog: Log = {
  info: (message) => process.stderr.write(`${message}\n`),
  warn: (message) => process.stderr.write(`warning: ${message}\n`),
};

/**
 * A URL as logs may show it: a user name and password become `***`, every query value `***`
 * (the names stay), a fragment `***`. A path with its query (`/?token=…`, as a server logs a
 * request) is read the same way. Text that is not a URL loses everything from `?` on.
 */
export function redactUrl(url: string): string {
  const relative = url.startsWith('/') && !url.startsWith('//');
  let parsed: URL;
  try {
    parsed = relative ? new URL(url, 'http://relative.invalid') : new URL(url);
  } catch {
    return url.replace(/[?#].*$/s, '?***');
  }
  if (parsed.username || parsed.password) {
    parsed.username = '***';
    parsed.password = '';
  }
  const query = [...parsed.searchParams.keys()].map((name) => `${encodeURIComponent(name)}=***`);
  parsed.search = query.join('&');
  if (parsed.hash) parsed.hash = '***';
  const text = parsed.toString();
  return relative ? text.slice(parsed.origin.length) : text;
}
