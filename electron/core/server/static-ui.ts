/**
 * The built studio UI (`npm run build:ui` writes it to `uiDir`): index.html (sent by the `/`
 * route of routes/session.ts, which is also the sign-in), hashed assets under `/assets/`, the
 * favicon, each with the content security policy; and the small pages the server writes
 * itself (sign-in refused, UI not built).
 */

import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../../shared/errors';
import { NOT_API } from './openapi';
import { STUDIO_CSP } from './security';

/**
 * The nearest folder at or above `dir` that holds a package.json (the repository, or the
 * installed package), else `dir`. This module runs from the sources (electron/core/server/)
 * and from bundles (dist/cli/, dist/electron/main/), each at its own depth below that root.
 */
function packageRootOf(dir: string): string {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'package.json'))) return at;
    if (dirname(at) === at) return dir;
  }
}

/** Where `npm run build:ui` writes the renderer: dist/renderer of the package this module belongs to. */
export const DEFAULT_UI_DIR = join(packageRootOf(dirname(fileURLToPath(import.meta.url))), 'dist/renderer');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

export interface StaticUi {
  /** index.html, or a 503 page saying how to build the UI when it has not been built. */
  sendIndex(reply: FastifyReply): Promise<FastifyReply>;
  /** A small HTML page of the server's own (a title and an HTML body). */
  sendPage(reply: FastifyReply, status: number, title: string, body: string): FastifyReply;
}

/** A small HTML page of the server's own: a title and an HTML body, in `lang` (default English). */
export function serverPage(title: string, body: string, lang = 'en'): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${title} · Narration Studio</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:15vh auto;padding:0 1.5rem;color:#1d2433}
@media (prefers-color-scheme: dark){body{background:#15181f;color:#e5e8ef}}code{background:#8882;padding:.1em .35em;border-radius:4px}</style></head>
<body><h1>${title}</h1>${body}</body></html>`;
}

/** Serves `/assets/*` and `/favicon.svg` from `uiDir`; `/` is left to the caller (`sendIndex`). */
export function registerStaticUi(app: FastifyInstance, uiDir: string): StaticUi {
  const uiRoot = resolve(uiDir);

  const sendUiFile = async (reply: FastifyReply, relative: string) => {
    const path = resolve(join(uiRoot, relative));
    if (path !== uiRoot && !path.startsWith(uiRoot + sep)) throw new AppError('NOT_FOUND', 'No such file.');
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) throw new AppError('NOT_FOUND', 'No such file.');
    const type = TYPES[extname(path)] ?? 'application/octet-stream';
    // Built assets carry a content hash in their names: cache them for good.
    if (relative.startsWith('assets/')) reply.header('cache-control', 'public, max-age=31536000, immutable');
    return reply
      .code(200)
      .type(type)
      .header('content-security-policy', STUDIO_CSP)
      .send(await readFile(path));
  };

  app.get<{ Params: { '*': string } }>('/assets/*', { schema: NOT_API }, async (request, reply) =>
    sendUiFile(reply, `assets/${request.params['*']}`),
  );
  app.get('/favicon.svg', { schema: NOT_API }, async (_request, reply) => sendUiFile(reply, 'favicon.svg'));

  const sendPage: StaticUi['sendPage'] = (reply, status, title, body) =>
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('content-security-policy', STUDIO_CSP)
      .send(serverPage(title, body));

  return {
    sendPage,
    async sendIndex(reply) {
      if (!existsSync(join(uiRoot, 'index.html'))) {
        return sendPage(
          reply,
          503,
          'Studio UI not built',
          '<p>The server runs, but the studio UI has not been built.</p><p>Run <code>npm run build:ui</code>, then reload this page.</p>',
        );
      }
      return sendUiFile(reply, 'index.html');
    },
  };
}
