/**
 * The origins of other sites' pages and of browser extensions that may call the local API from
 * a browser (`serve --allow-origin`, the Settings view's "Allowed origins"): what one must look
 * like and its normal form, the one a browser sends in its Origin header. Pure: used by the
 * command line, the settings file, the server and the studio alike.
 *
 * Each origin is named exactly: no wildcard inside an origin (`https://*.example.com`), an extension only by
 * its own id, and an app in a web view by its own scheme and host (an Obsidian plugin's
 * `app://obsidian.md`, `capacitor://localhost`, `tauri://localhost`: Electron, Capacitor and Tauri
 * serve an app's pages from a scheme of their own, and that scheme and host are its origin).
 * Two entries name no one site and are taken only when written on their own: `*` (every site's
 * pages, not `null`) and `null` (local files and sandboxed frames). Never implied: a user who
 * names them has chosen that every such page may use the server's API (never its studio session).
 * Schemes whose pages have no origin of their own (`file:`, `data:`, `about:`; they send
 * `null`) or that are not pages (`ws:`, `javascript:`) are refused, saying why.
 */

/**
 * The WHATWG URL parser, a global of both the browser and Node. Shared code is type-checked with
 * neither side's globals (electron/shared/tsconfig.json), so the part used here is declared for
 * this module only; nothing is emitted for it.
 */
declare const URL: new (input: string) => { readonly origin: string };

/** Schemes of extension pages, whose origin is the scheme and the extension's id. */
export const EXTENSION_SCHEMES = ['chrome-extension', 'moz-extension', 'safari-web-extension'] as const;

/**
 * Schemes that never name a page's origin: pages of the first kind send `Origin: null`, `blob:`
 * and `filesystem:` pages carry the origin inside them, the others are not pages.
 */
const NO_ORIGIN_SCHEMES = [
  'file',
  'data',
  'about',
  'blob',
  'filesystem',
  'javascript',
  'ws',
  'wss',
  'ftp',
  'mailto',
] as const;

/** The entry that allows every site's pages (not `null`), only when named on its own. */
export const ANY_ORIGIN = '*';
/** The origin local files and sandboxed frames send, allowed only when named on its own. */
export const NULL_ORIGIN = 'null';

/** True when a request's Origin is one of `allowed` (normal forms, as checkAllowedOrigin answers them). */
export function originIsNamed(allowed: ReadonlySet<string>, origin: string): boolean {
  return allowed.has(origin) || (allowed.has(ANY_ORIGIN) && origin !== NULL_ORIGIN);
}

export type AllowedOriginCheck = { ok: true; origin: string } | { ok: false; message: string };

const EXAMPLE = 'e.g. http://127.0.0.1:5001, chrome-extension://<extension id> or app://obsidian.md';

/**
 * Checks one origin as a user wrote it and answers its normal form (scheme and host in lower
 * case, no default port), or a one-line reason it is refused.
 */
export function checkAllowedOrigin(text: string): AllowedOriginCheck {
  const value = text.trim();
  const refuse = (message: string): AllowedOriginCheck => ({ ok: false, message });
  // Named on their own, the two entries that stand for more than one site are the user's choice.
  if (value === ANY_ORIGIN) return { ok: true, origin: ANY_ORIGIN };
  if (value.toLowerCase() === NULL_ORIGIN) return { ok: true, origin: NULL_ORIGIN };
  if (value.includes('*'))
    return refuse(
      `"${value}" is refused: a wildcard inside an origin is not supported; name each page's, extension's or app's origin (${EXAMPLE}), or "*" alone for every site.`,
    );
  const noOrigin = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  if (noOrigin !== undefined && (NO_ORIGIN_SCHEMES as readonly string[]).includes(noOrigin))
    return refuse(
      `"${value}" is refused: ${noOrigin}: addresses are not pages with an origin of their own (browsers send "null", or another page's origin, for such pages); serve the page over http:// and name that origin.`,
    );
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)(.*)$/i.exec(value);
  if (!match) return refuse(`"${value}" is not an origin: write scheme://host[:port], ${EXAMPLE}.`);
  const scheme = match[1]!.toLowerCase();
  const authority = match[2]!;
  if (match[3] !== '')
    return refuse(
      `"${value}" is not an origin: an origin is scheme://host[:port] with no path, here ${scheme}://${authority}.`,
    );
  if (authority === '' || authority.includes('@'))
    return refuse(`"${value}" is not an origin: write scheme://host[:port], ${EXAMPLE}.`);
  if (scheme === 'http' || scheme === 'https') {
    try {
      return { ok: true, origin: new URL(`${scheme}://${authority}`).origin };
    } catch {
      return refuse(`"${value}" is not an origin: its host or port is not valid.`);
    }
  }
  if ((EXTENSION_SCHEMES as readonly string[]).includes(scheme)) {
    if (!/^[a-z0-9-]+$/i.test(authority))
      return refuse(`"${value}" is not an extension's origin: write ${scheme}://<extension id>.`);
    return { ok: true, origin: `${scheme}://${authority.toLowerCase()}` };
  }
  // An app's own scheme (app://obsidian.md, capacitor://localhost, tauri://localhost): its host,
  // and a port if it has one, as the web view sends them (host in lower case).
  const app = /^([a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)(:(\d{1,5}))?$/i.exec(
    authority,
  );
  if (!app || (app[6] !== undefined && Number(app[6]) > 65535))
    return refuse(
      `"${value}" is not an app's origin: write ${scheme}://host[:port] with the host the app's pages are served from, e.g. app://obsidian.md or capacitor://localhost.`,
    );
  return { ok: true, origin: `${scheme}://${authority.toLowerCase()}` };
}

/**
 * The normal forms of a list of origins, without repeats; throws a TypeError with the first
 * refused one's reason (prefixed by `label`, e.g. "--allow-origin").
 */
export function normalizeAllowedOrigins(values: readonly string[], label: string): string[] {
  const origins: string[] = [];
  for (const value of values) {
    const check = checkAllowedOrigin(value);
    if (!check.ok) throw new TypeError(`${label}: ${check.message}`);
    if (!origins.includes(check.origin)) origins.push(check.origin);
  }
  return origins;
}
