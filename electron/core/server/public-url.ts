/**
 * `--public-url` with a path: the server reached under a reverse proxy's sub-path
 * (`location /tts/ { proxy_pass http://127.0.0.1:8787/; }` with `--public-url http://host/tts`).
 * The proxy takes the path off, so the routes stay where they are; what the server writes for
 * the browser to follow gets the path put back: the sign-in address, redirects (`Location`),
 * the session cookie's `Path`. Links in records (`audio_link`, `srt_link`, callbacks) are built
 * from the whole public URL already (studio-core's `baseUrl`).
 *
 * A request reached the server through the public URL when its Host names the public URL's
 * host (security.ts: `HostPolicy.isPublicHost`; nginx's `proxy_set_header Host $host`, Caddy,
 * Traefik), or when its Origin is the public URL's (a page's sign-in and sign-out behind an
 * nginx that forwards its own upstream address as the Host, its default); one made to the
 * server directly (its own address and port) keeps the root: a direct run behaves as without a
 * path.
 */

import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The public URL without its trailing slashes: `http://host/tts`, `http://host:8080`. */
export function publicBase(publicUrl: string): string {
  return publicUrl.replace(/\/+$/, '');
}

/** The path of a public URL without its trailing slash: `/tts`, or `''` at the root. */
export function publicPath(publicUrl: string | undefined): string {
  return publicUrl === undefined ? '' : new URL(publicUrl).pathname.replace(/\/+$/, '');
}

/** The studio's sign-in address under `base` (a server's URL or its public URL). */
export function signInAddress(base: string, token: string): string {
  return `${publicBase(base)}/?token=${encodeURIComponent(token)}`;
}

/**
 * The path that the browser sees for a request: the public URL's path when the request came
 * through it (its Host is the public URL's, `isPublicHost`, or its Origin is), else `''`.
 */
export type RequestPrefix = (request: FastifyRequest) => string;

export function requestPrefix(
  publicUrl: string | undefined,
  isPublicHost: (hostHeader: string | undefined) => boolean,
): RequestPrefix {
  const path = publicPath(publicUrl);
  if (publicUrl === undefined || path === '') return () => '';
  const origin = new URL(publicUrl).origin;
  return (request) => (isPublicHost(request.headers.host) || request.headers.origin === origin ? path : '');
}

/** `Path` of a cookie for the pages under `prefix` (`/` at the root). */
export function cookiePath(prefix: string): string {
  return prefix === '' ? '/' : prefix;
}

/**
 * `location` under `prefix` when it is a path of this server (`/api-docs/`); an absolute URL, a
 * relative one and a scheme-relative `//host` are left as they are.
 */
export function prefixedLocation(location: string, prefix: string): string {
  if (prefix === '' || !location.startsWith('/') || location.startsWith('//')) return location;
  return `${prefix}${location}`;
}

/** Puts the sub-path back into redirects of requests that came through the public URL. */
export function prefixRedirects(app: FastifyInstance, prefix: RequestPrefix): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const location = reply.getHeader('location');
    if (typeof location === 'string') reply.header('location', prefixedLocation(location, prefix(request)));
    return payload;
  });
}
