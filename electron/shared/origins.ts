/**
 * The origins of other sites' pages and of browser extensions that may call the local API from
 * a browser (`serve --allow-origin`, the Settings view's "Allowed origins"): what one must look
 * like and its normal form, the one a browser sends in its Origin header. Pure: used by the
 * command line, the settings file, the server and the studio alike.
 *
 * Each origin is named exactly: no wildcard (`*` would let every site open in the browser use
 * the server), no `null` (every local file and sandboxed frame sends it), and an extension only
 * by its own id.
 */

/** Schemes of extension pages, whose origin is the scheme and the extension's id. */
export const EXTENSION_SCHEMES = ['chrome-extension', 'moz-extension', 'safari-web-extension'] as const;

export type AllowedOriginCheck = { ok: true; origin: string } | { ok: false; message: string };

const EXAMPLE = 'e.g. http://127.0.0.1:5001 or chrome-extension://<extension id>';

/**
 * Checks one origin as a user wrote it and answers its normal form (scheme and host in lower
 * case, no default port), or a one-line reason it is refused.
 */
export function checkAllowedOrigin(text: string): AllowedOriginCheck {
  const value = text.trim();
  const refuse = (message: string): AllowedOriginCheck => ({ ok: false, message });
  if (value.includes('*'))
    return refuse(
      `"${value}" is refused: a wildcard would let every web site open in your browser use this server; name each page's or extension's origin (${EXAMPLE}).`,
    );
  if (value.toLowerCase() === 'null')
    return refuse(
      '"null" is refused: every local file and sandboxed page sends it, so it names no one site; serve the page over http:// and name that origin.',
    );
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)(.*)$/i.exec(value);
  if (!match) return refuse(`"${value}" is not an origin: write scheme://host[:port], ${EXAMPLE}.`);
  const scheme = match[1]!.toLowerCase();
  const authority = match[2]!;
  if (scheme !== 'http' && scheme !== 'https' && !(EXTENSION_SCHEMES as readonly string[]).includes(scheme))
    return refuse(
      `"${value}" is refused: browsers send http://, https:// or an extension's origin (${EXTENSION_SCHEMES.map((s) => `${s}://`).join(', ')}).`,
    );
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
  if (!/^[a-z0-9-]+$/i.test(authority))
    return refuse(`"${value}" is not an extension's origin: write ${scheme}://<extension id>.`);
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
