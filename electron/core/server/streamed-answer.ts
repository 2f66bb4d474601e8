/**
 * Headers of every answer sent while it is produced (streamed speech in each dialect, PCM,
 * server-sent events, auditions): never stored by a cache, and `X-Accel-Buffering: no`, which
 * makes nginx (buffering on by default) pass each piece on at once instead of holding the
 * answer until its buffers fill or it ends. Caddy and Apache pass chunked answers on as they
 * come without it (docs/USER-GUIDE.md "Behind a reverse proxy").
 */
export const STREAMED_ANSWER_HEADERS = {
  'cache-control': 'no-store',
  'x-accel-buffering': 'no',
} as const;
