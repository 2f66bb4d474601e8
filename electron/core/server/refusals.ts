/**
 * Requests refused by the Host and Origin checks (security.ts), explained: most often a reverse
 * proxy, a name on the network or a site's page that the server was not told about.
 *
 * Host: the API's JSON refusal names the option and the value to give (`--allowed-host <name>`,
 * `--public-url <scheme://host>`); a browser opening a page (GET, `Accept: text/html`, not an API
 * path) gets a small page saying the same in English and Vietnamese (the one its
 * Accept-Language prefers first), not a blank page.
 *
 * Origin: a page of the host the request was sent to (the studio opened through a proxy whose
 * scheme or port `--public-url` does not name) is told `--public-url <its origin>`; a page of
 * another site, `--allow-origin <its origin>`.
 */

import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors';
import { STUDIO_CSP } from './security';
import { serverPage } from './static-ui';

/** What to start the server with so that it answers to the Host a request named. */
export interface HostAdvice {
  /** The Host header as received. */
  host: string;
  /** `--allowed-host` takes the name alone (no port). */
  allowedHost: string;
  /** `--public-url`: the scheme the proxy forwarded (X-Forwarded-Proto), else http, and the Host. */
  publicUrl: string;
}

/** The advice for a Host header; undefined when there is none or it is not a host name. */
export function hostAdvice(hostHeader: string | undefined, forwardedProto?: string): HostAdvice | undefined {
  const host = hostHeader?.trim() ?? '';
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i.exec(host);
  if (!match) return undefined;
  const proto = forwardedProto?.split(',')[0]?.trim().toLowerCase();
  const scheme = proto === 'https' ? 'https' : 'http';
  return { host, allowedHost: match[1]!.toLowerCase(), publicUrl: `${scheme}://${host.toLowerCase()}` };
}

const adviceOf = (request: FastifyRequest): HostAdvice | undefined => {
  const proto = request.headers['x-forwarded-proto'];
  return hostAdvice(request.headers.host, Array.isArray(proto) ? proto[0] : proto);
};

/** The API's refusal: names the option and the value that would let this Host in. */
export function hostRefusal(request: FastifyRequest): AppError {
  const advice = adviceOf(request);
  if (!advice)
    return new AppError(
      'FORBIDDEN_HOST',
      `Host "${request.headers.host ?? ''}" is not this server: the request must name the server's address in its Host header.`,
    );
  return new AppError(
    'FORBIDDEN_HOST',
    `Host "${advice.host}" is not this server. If the server is reached under this name (a reverse proxy, or a name on the network), start it with --allowed-host ${advice.allowedHost}, or with --public-url ${advice.publicUrl} (the address people open, with its sub-path if the proxy serves it under one, e.g. ${advice.publicUrl}/tts).`,
    { host: advice.host, allowed_host: advice.allowedHost, public_url: advice.publicUrl },
  );
}

/** The Origin check's refusal: names `--public-url` or `--allow-origin` with the origin to give. */
export function originRefusal(request: FastifyRequest): AppError {
  const origin = request.headers.origin ?? '';
  let parsed: URL | undefined;
  try {
    parsed = new URL(origin);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !/^https?:$/.test(parsed.protocol))
    return new AppError('FORBIDDEN_ORIGIN', `Requests from origin "${origin}" are not allowed.`);
  const hostName = hostAdvice(request.headers.host)?.allowedHost;
  if (hostName !== undefined && parsed.hostname === hostName)
    return new AppError(
      'FORBIDDEN_ORIGIN',
      `Requests from origin "${origin}" are not allowed. If the studio is opened at that address (through a reverse proxy), start the server with --public-url ${parsed.origin} (with its sub-path if the proxy serves it under one).`,
      { origin, public_url: parsed.origin },
    );
  return new AppError(
    'FORBIDDEN_ORIGIN',
    `Requests from origin "${origin}" are not allowed. To let that site's pages call the API with a key, start the server with --allow-origin ${parsed.origin}.`,
    { origin, allow_origin: parsed.origin },
  );
}

/** A browser opening a page (not a script calling the API): GET or HEAD, HTML accepted, not an API path. */
export function wantsPage(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (/^\/(api|v1|dev)(\/|\?|$)/.test(request.url)) return false;
  return /\btext\/html\b/i.test(request.headers.accept ?? '');
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** True when Accept-Language puts Vietnamese before English (or names Vietnamese and not English). */
export function prefersVietnamese(acceptLanguage: string | undefined): boolean {
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { lang: tag.trim().toLowerCase().split('-')[0], q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.lang === 'vi' || entry.lang === 'en')
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked[0]?.lang === 'vi';
}

/** The page's two languages: a title and paragraphs each. */
function sections(advice: HostAdvice | undefined, host: string): { en: string; vi: string } {
  const code = (text: string) => `<code>${escapeHtml(text)}</code>`;
  if (!advice) {
    return {
      en: `<p>This server did not recognise the name this page was asked for under (${code(host)}).</p>`,
      vi: `<p>Máy chủ này không nhận ra tên mà trang này được yêu cầu (${code(host)}).</p>`,
    };
  }
  const allowed = code(`--allowed-host ${advice.allowedHost}`);
  const publicUrl = code(`--public-url ${advice.publicUrl}`);
  const withPath = code(`--public-url ${advice.publicUrl}/tts`);
  return {
    en:
      `<p>This server does not answer to the name ${code(advice.host)}, so it did not send the studio.</p>` +
      `<p>If you reach it through a reverse proxy or under another name on your network, start it with ${allowed}, ` +
      `or with ${publicUrl} (the address you open; add the sub-path when the proxy serves the studio under one, e.g. ${withPath}).</p>`,
    vi:
      `<p>Máy chủ này không nhận tên ${code(advice.host)}, nên không gửi trang studio.</p>` +
      `<p>Nếu bạn mở nó qua một reverse proxy hoặc bằng một tên khác trong mạng, hãy khởi động nó với ${allowed}, ` +
      `hoặc với ${publicUrl} (địa chỉ bạn mở; thêm đường dẫn con khi proxy đặt studio dưới một đường dẫn, ví dụ ${withPath}).</p>`,
  };
}

/** Answers the page that explains a refused Host (403), in the language the browser prefers first. */
export function sendHostRefusalPage(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const advice = adviceOf(request);
  const { en, vi } = sections(advice, request.headers.host ?? '');
  const vietnamese = prefersVietnamese(request.headers['accept-language']);
  const english = `<section lang="en">${en}</section>`;
  const viet = `<section lang="vi">${vi}</section>`;
  const title = vietnamese
    ? 'Tên máy chủ không được nhận · Host not allowed'
    : 'Host not allowed · Tên máy chủ không được nhận';
  return reply
    .code(403)
    .type('text/html; charset=utf-8')
    .header('content-security-policy', STUDIO_CSP)
    .send(serverPage(title, vietnamese ? viet + english : english + viet, vietnamese ? 'vi' : 'en'));
}
