/**
 * DNS-rebinding and cross-origin protection. A page on another site can make the browser send
 * requests to 127.0.0.1; it cannot make the Host header say 127.0.0.1 when its own name was
 * rebound, and its Origin header names it. So: the Host must be one of this server's own
 * names, and an Origin, when present, must be one of this server's own origins, or one the
 * operator named (`--allow-origin`): a page of another site or a browser extension, which gets
 * CORS headers (cors.ts) and may call the API with a key, never with the studio's session.
 *
 * Behind a reverse proxy (nginx's `proxy_set_header Host $host`, Caddy, Traefik) the Host
 * carries the public name without our port, or with the port of the public URL; so a name of
 * ours is accepted alone, with the listening port or with the public URL's port. Only the name
 * decides whether a request is rebound; unknown names stay refused whatever their port.
 *
 * Also: comparing a secret from a request (login token, download token) in constant time.
 */

import { timingSafeEqual } from 'node:crypto';
import { networkInterfaces, hostname } from 'node:os';
import { normalizeAllowedOrigins, originIsNamed } from '../../shared/origins';

/** True when `given` is `expected`, compared in time that does not depend on where they differ. */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface HostPolicy {
  /** True when the Host header names this server. */
  isAllowedHost(hostHeader: string | undefined): boolean;
  /**
   * True when the Host header names the public URL's host (its name, with its port or none, as
   * proxies forward it): the request came through `--public-url`, not to the server directly.
   * False without a public URL.
   */
  isPublicHost(hostHeader: string | undefined): boolean;
  /** True when there is no Origin header or it is one of this server's origins (or configured). */
  isAllowedOrigin(origin: string | undefined): boolean;
  /**
   * True when `origin` is one of `allowedOrigins` (exactly, or any but `null` when `*` is
   * named), and not one of this server's own: a page of another site, an extension or an app,
   * answered with CORS headers.
   */
  isCrossOrigin(origin: string | undefined): boolean;
  /** The configured `allowedOrigins`, in their normal form. */
  readonly allowedOrigins: readonly string[];
}

export interface HostPolicyOptions {
  /** The address the server is bound to. */
  host: string;
  /** The real port (after listen). */
  port(): number;
  /** Extra host names (no port) to accept, e.g. a LAN name. */
  allowedHosts?: readonly string[];
  /**
   * The address clients reach this server under (`--public-url`, e.g. behind a reverse proxy):
   * its name is one of ours, its port (explicit, else the scheme's 443/80) is accepted in the
   * Host, and its origin is one of ours.
   */
  publicUrl?: string;
  /**
   * Origins of other sites' pages and of browser extensions to accept (`--allow-origin`), each
   * as `checkAllowedOrigin` (shared/origins.ts) takes it; a refused one throws a TypeError.
   */
  allowedOrigins?: readonly string[];
}

const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]', '::1'];

/** The port of a URL: its explicit one, else its scheme's default. */
function effectivePort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

export function createHostPolicy(options: HostPolicyOptions): HostPolicy {
  const publicUrl = options.publicUrl !== undefined ? new URL(options.publicUrl) : undefined;
  const names = new Set<string>([
    ...LOOPBACK,
    ...(options.allowedHosts ?? []).map((h) => h.toLowerCase()),
    ...(publicUrl ? [publicUrl.hostname] : []),
  ]);
  const bound = options.host.toLowerCase();
  if (bound === '0.0.0.0' || bound === '::') {
    // Bound on every interface: the machine's own names and addresses are its names.
    names.add(hostname().toLowerCase());
    for (const list of Object.values(networkInterfaces())) {
      for (const info of list ?? []) names.add(info.family === 'IPv6' ? `[${info.address}]` : info.address);
    }
  } else {
    names.add(bound.includes(':') && !bound.startsWith('[') ? `[${bound}]` : bound);
  }
  const extraOrigins = new Set(normalizeAllowedOrigins(options.allowedOrigins ?? [], 'allowed origin'));
  const publicPort = publicUrl ? effectivePort(publicUrl) : undefined;

  const parseHost = (value: string): { name: string; port: number | undefined } | undefined => {
    const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(value.trim());
    if (!match) return undefined;
    return { name: match[1]!.toLowerCase(), port: match[2] ? Number(match[2]) : undefined };
  };

  /** A page served by this server: directly, or through the public URL. */
  const isOwnOrigin = (origin: string): boolean => {
    try {
      const url = new URL(origin);
      // The public URL's own origin (the studio served through the proxy), exactly.
      if (publicUrl && url.origin === publicUrl.origin) return true;
      // Else a page served by this server directly: http, one of its names, its listening port.
      return url.protocol === 'http:' && names.has(url.hostname) && effectivePort(url) === options.port();
    } catch {
      return false;
    }
  };

  return {
    isAllowedHost(hostHeader) {
      const parsed = hostHeader ? parseHost(hostHeader) : undefined;
      if (parsed === undefined || !names.has(parsed.name)) return false;
      return parsed.port === undefined || parsed.port === options.port() || parsed.port === publicPort;
    },
    isPublicHost(hostHeader) {
      const parsed = hostHeader ? parseHost(hostHeader) : undefined;
      if (publicUrl === undefined || parsed === undefined || parsed.name !== publicUrl.hostname) return false;
      return parsed.port === undefined || parsed.port === publicPort;
    },
    isAllowedOrigin(origin) {
      return origin === undefined || isOwnOrigin(origin) || originIsNamed(extraOrigins, origin);
    },
    isCrossOrigin(origin) {
      return origin !== undefined && originIsNamed(extraOrigins, origin) && !isOwnOrigin(origin);
    },
    allowedOrigins: [...extraOrigins],
  };
}

/** The content security policy of the studio's pages (and of the API reference, openapi.ts). */
export const STUDIO_CSP = [
  "default-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  // wavesurfer.js puts a <style> in its shadow root.
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');
