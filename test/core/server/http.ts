/** What the server tests send and get back, whether over real HTTP (helpers.ts) or app.inject (inject.ts). */

export interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: Buffer;
  /** Parsed JSON body; loosely typed so tests can reach into any route's answer. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'OPTIONS';

export interface CallOptions {
  body?: unknown;
  /** Raw body string (sent as is). */
  raw?: string | Buffer;
  /** Bearer key; null sends no Authorization header. */
  key?: string | null;
  headers?: Record<string, string>;
}

/** Headers and payload of a call: the key as a bearer header, a `body` as JSON. */
export function callRequest(
  { body, raw, key, headers = {} }: CallOptions,
  defaultKey: string,
): { headers: Record<string, string>; payload: string | Buffer | undefined } {
  const all: Record<string, string> = { ...headers };
  const callKey = key === undefined ? defaultKey : key;
  if (callKey !== null) all.authorization ??= `Bearer ${callKey}`;
  let payload: string | Buffer | undefined;
  if (raw !== undefined) payload = raw;
  else if (body !== undefined) {
    payload = JSON.stringify(body);
    all['content-type'] ??= 'application/json';
  }
  return { headers: all, payload };
}

export function toHttpResult(
  status: number,
  headers: Record<string, string | string[] | number | undefined>,
  body: Buffer,
): HttpResult {
  const text = body.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const strings: HttpResult['headers'] = {};
  for (const [name, value] of Object.entries(headers))
    strings[name] = typeof value === 'number' ? String(value) : value;
  return { status, headers: strings, text, body, json };
}
