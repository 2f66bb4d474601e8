/**
 * Bad-input fuzzer for the real HTTP server: seeded, reproducible generation of malformed
 * requests. Every answer must be a 4xx with the spec's error shape (or OpenAI's on /v1),
 * never a 5xx or a stack trace, and valid requests sent in between must keep working.
 */

import { connect } from 'node:net';
import { request } from 'undici';

export interface FuzzCase {
  category: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Sent over a raw socket (truncated bodies, oversized headers, lying Content-Length). */
  raw?: boolean;
  /** The route answers OpenAI's error shape. */
  openai?: boolean;
}

export interface FuzzTarget {
  url: string;
  key: string;
  revokedKey: string;
  validVoice: string;
}

const TTS_FIELDS = [
  'response_type',
  'callback_url',
  'input_text',
  'voice_code',
  'model_id',
  'audio_type',
  'bitrate',
  'speed_rate',
  'pitch_rate',
  'volume',
  'generate_srt',
] as const;

/** Raw JSON texts of values of every JSON type (and a few that are not JSON). */
const ODD_VALUES = [
  'null',
  'true',
  'false',
  '0',
  '-0',
  '1',
  '-1',
  '1e308',
  '-1e308',
  '1e309',
  '123456789012345678901234567890',
  '9007199254740993',
  '0.1',
  '""',
  '"1.0"',
  '"NaN"',
  '"Infinity"',
  '"mp3"',
  '"\\ud800"',
  '"\\udfff\\ud800"',
  '"\\u0000"',
  '[]',
  '[1,2]',
  '{}',
  '{"a":1}',
  '[[[[[[]]]]]]',
];

/** Boundary values of the rate and volume fields; valid ones are marked. */
const RATE_VALUES: [string, boolean][] = [
  ['0.45', false],
  ['0.5', true],
  ['0.49999999', false],
  ['2.0', true],
  ['2', true],
  ['2.05', false],
  ['2.1', false],
  ['1.25', false],
  ['1.0', true],
  ['"1.0"', true],
  ['null', false],
  ['"NaN"', false],
  ['1e308', false],
  ['-0', false],
  ['0', false],
  ['-1', false],
  ['9007199254740993', false],
  ['1.1', true],
  ['1.15', false],
];
const VOLUME_VALUES: [string, boolean][] = [
  ['49', false],
  ['50', true],
  ['150', true],
  ['151', false],
  ['100.5', false],
  ['100.0', true],
  ['"100"', true],
  ['-0', false],
  ['1e308', false],
  ['null', false],
];

export function generateCase(rng: () => number, target: FuzzTarget): FuzzCase {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
  const int = (n: number) => Math.floor(rng() * n);
  const json = { 'content-type': 'application/json' };
  const auth = { authorization: `Bearer ${target.key}` };
  const baseFields = (): Record<string, string> => ({
    input_text: JSON.stringify('Hello fuzz.'),
    voice_code: JSON.stringify(target.validVoice),
  });
  const objectText = (fields: Record<string, string>) =>
    `{${Object.entries(fields)
      .map(([k, v]) => `${JSON.stringify(k)}:${v}`)
      .join(',')}}`;
  const post = (category: string, body: string | Buffer, headers: Record<string, string> = {}): FuzzCase => ({
    category,
    method: 'POST',
    path: '/api/v1/tts',
    headers: { ...json, ...auth, ...headers },
    body,
  });

  const category = pick([
    'wrong_type',
    'wrong_type',
    'boundary',
    'boundary',
    'missing_extra',
    'deep_nesting',
    'non_json',
    'content_type',
    'invalid_utf8',
    'lone_surrogate',
    'long_header',
    'auth',
    'traversal',
    'openai',
    'raw_socket',
  ] as const);

  switch (category) {
    case 'wrong_type': {
      const fields = baseFields();
      const field = pick(TTS_FIELDS);
      // Some odd values are valid for some fields (1 for speed_rate, true for generate_srt):
      // the voice is unknown, so even those end in a 400 and nothing is synthesized.
      fields.voice_code = '"no_such_voice"';
      fields[field] = pick(ODD_VALUES);
      return post(category, objectText(fields));
    }
    case 'boundary': {
      const fields = baseFields();
      let allValid = true;
      for (const field of ['speed_rate', 'pitch_rate', 'volume'] as const) {
        if (rng() < 0.5) continue;
        const [value, ok] = pick(field === 'volume' ? VOLUME_VALUES : RATE_VALUES);
        fields[field] = value;
        allValid &&= ok;
      }
      if (rng() < 0.3) fields.bitrate = pick(['0', '64', '63', '128.0', '"128"', '320', '1e308']);
      // Valid boundary values must pass the rule and then fail on the voice, never be synthesized.
      fields.voice_code = '"no_such_voice"';
      void allValid;
      return post(category, objectText(fields));
    }
    case 'missing_extra': {
      const fields = baseFields();
      if (rng() < 0.5) delete fields[pick(['input_text', 'voice_code'])];
      else fields.voice_code = '"no_such_voice"';
      for (let i = int(5); i > 0; i--) fields[`extra_${int(1000)}`] = pick(ODD_VALUES);
      // Own properties (a plain assignment to __proto__ would set the prototype instead).
      const own = (k: string, v: string) =>
        Object.defineProperty(fields, k, { value: v, enumerable: true, writable: true });
      if (rng() < 0.2) own('__proto__', '{"polluted":true}');
      if (rng() < 0.2) own('constructor', '{"prototype":{"x":1}}');
      return post(category, objectText(fields));
    }
    case 'deep_nesting': {
      const depth = pick([100, 1000, 10_000, 100_000]);
      const open = rng() < 0.5 ? '[' : '{"a":';
      const close = open === '[' ? ']' : '}';
      const nested = open.repeat(depth) + '1' + close.repeat(depth);
      const fields = baseFields();
      const where = pick(['input_text', 'voice_code', 'extra', 'speed_rate', 'root']);
      if (where === 'root') return post(category, nested);
      if (where === 'extra') fields.voice_code = '"no_such_voice"';
      fields[where] = nested;
      return post(category, objectText(fields));
    }
    case 'non_json': {
      const full = objectText(baseFields());
      const body = pick([
        () => full.slice(0, 1 + int(full.length - 1)),
        () => 'not json',
        () => '',
        () => 'NaN',
        () => '"a string"',
        () => '[1,2,3]',
        () => 'null',
        () => '42',
        () => "{'input_text':'x'}",
        () => full + 'garbage',
        () => full.replace(':', ''),
        () => '{"input_text": "a",}',
        () => String.fromCharCode(...Array.from({ length: 50 }, () => int(128))),
      ])();
      return post(category, body);
    }
    case 'content_type': {
      const body = objectText(baseFields());
      const type = pick([
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/xml',
        'application/octet-stream',
        'image/png',
        '',
        ';;;',
        'application/json; charset=latin1',
        'application/jsonx',
        '*/*',
      ]);
      const headers: Record<string, string> = { ...auth };
      if (type !== '') headers['content-type'] = type;
      return {
        category,
        method: 'POST',
        path: '/api/v1/tts',
        headers,
        // Valid JSON with a wrong type (or charset) must still not be synthesized: use an unknown voice.
        body: body.replace(JSON.stringify(target.validVoice), '"no_such_voice"'),
      };
    }
    case 'invalid_utf8': {
      const bad = pick([
        [0xff],
        [0xc0, 0x80],
        [0xed, 0xa0, 0x80],
        [0xf8, 0x88, 0x80, 0x80, 0x80],
        [0x80],
        [0xe2, 0x82],
      ]);
      const where = pick(['voice', 'key', 'outside', 'text_no_voice']);
      const b = Buffer.from(bad);
      const body =
        where === 'voice'
          ? Buffer.concat([Buffer.from('{"input_text":"hi","voice_code":"en'), b, Buffer.from('"}')])
          : where === 'key'
            ? Buffer.concat([Buffer.from('{"input_text":"hi","voice_code":"x","'), b, Buffer.from('":1}')])
            : where === 'outside'
              ? Buffer.concat([Buffer.from('{"input_text":"hi",'), b, Buffer.from('}')])
              : Buffer.concat([Buffer.from('{"input_text":"h'), b, Buffer.from('i"}')]);
      return post(category, body);
    }
    case 'lone_surrogate': {
      const s = pick(['\\ud800', '\\udfff', '\\ud800\\ud800', 'a\\udbff', '\\ud83d']);
      const fields = baseFields();
      const where = pick(['voice_code', 'callback_url', 'model_id', 'audio_type', 'input_missing_voice']);
      if (where === 'input_missing_voice') {
        fields.input_text = `"${s}"`;
        delete fields.voice_code;
      } else fields[where] = `"${s}"`;
      if (where !== 'voice_code') fields.voice_code ??= '"no_such_voice"';
      if (where !== 'voice_code' && where !== 'input_missing_voice') fields.voice_code = '"no_such_voice"';
      return post(category, objectText(fields), rng() < 0.3 ? { 'x-fuzz': 'surrogate' } : {});
    }
    case 'long_header': {
      const size = pick([1000, 8000, 15_000, 20_000, 70_000]);
      const which = pick(['x-long', 'authorization', 'content-type', 'user-agent', 'many']);
      const long = 'a'.repeat(size);
      const headers: Record<string, string> = { ...json, ...auth };
      if (which === 'authorization') headers.authorization = `Bearer ${long}`;
      else if (which === 'content-type') headers['content-type'] = `application/json; x=${long}`;
      else if (which === 'many') for (let i = 0; i < size / 100; i++) headers[`x-h${i}`] = 'b'.repeat(90);
      else headers[which] = long;
      return {
        category,
        method: 'POST',
        path: '/api/v1/tts',
        headers,
        body: objectText({ ...baseFields(), voice_code: '"no_such_voice"' }),
        raw: true,
      };
    }
    case 'auth': {
      const authHeader = pick([
        undefined,
        '',
        'Bearer',
        'Bearer ',
        'Basic dXNlcjpwYXNz',
        'Bearer nope',
        `Bearer ${target.revokedKey}`,
        `Bearer ${target.key}x`,
        `Bearer ${target.key.slice(0, -1)}`,
        `Bearer ${target.key} extra`,
        `bearer\t${target.revokedKey}`,
        'Bearer ../../etc/passwd',
        `Bearer ${'k'.repeat(5000)}`,
      ]);
      const route = pick([
        ['POST', '/api/v1/tts'],
        ['GET', '/api/v1/tts'],
        ['GET', '/api/v1/tts/0123456789abcdef0123456789abcdef'],
        ['GET', '/api/v1/tts/0123456789abcdef0123456789abcdef/callback-result'],
        ['GET', '/api/v1/tts/0123456789abcdef0123456789abcdef/callback-attempts'],
        ['POST', '/api/v1/tts/0123456789abcdef0123456789abcdef/cancel'],
        ['POST', '/api/v1/tts/0123456789abcdef0123456789abcdef/callback-retry'],
        ['GET', '/api/v1/usage'],
        ['POST', '/v1/audio/speech'],
      ] as const);
      const headers: Record<string, string> = { ...json };
      if (authHeader !== undefined) headers.authorization = authHeader;
      return {
        category,
        method: route[0],
        path: route[1],
        headers,
        ...(route[0] === 'POST' ? { body: objectText(baseFields()) } : {}),
        openai: route[1] === '/v1/audio/speech',
      };
    }
    case 'traversal': {
      const id = pick([
        '..%2f..%2fetc%2fpasswd',
        '../../etc/passwd',
        '..',
        '%2e%2e',
        '%00',
        'a'.repeat(10_000),
        '0123456789ABCDEF0123456789ABCDEF',
        '0123456789abcdef0123456789abcdef',
        '%ff%fe',
        '%',
        '%zz',
        '..%5c..%5cwindows',
        'null',
      ]);
      const path = pick([
        `/api/v1/tts/${id}`,
        `/api/v1/tts/${id}/callback-result`,
        `/api/v1/tts/${id}/callback-attempts`,
        `/api/v1/tts/../../etc/passwd/callback-result`,
        `/files/..%2f..%2f..%2fetc%2fpasswd`,
        `/files/${id}/${id}/audio.mp3`,
        `/files/0123456789abcdef0123456789abcdef/${id}/audio.mp3`,
        `/files/0123456789abcdef0123456789abcdef/token/..%2f..%2fdb.sqlite`,
        `/files/../../../../etc/passwd`,
        `/api/v1/../../../etc/passwd`,
      ]);
      const method = path.startsWith('/api/v1/tts/') && rng() < 0.3 ? 'POST' : 'GET';
      return { category, method, path: method === 'POST' ? `${path}/cancel` : path, headers: { ...auth } };
    }
    case 'openai': {
      const fields: Record<string, string> = {
        model: '"tts-1"',
        input: '"Hello."',
        voice: '"alloy"',
      };
      const field = pick(['model', 'input', 'voice', 'response_format', 'speed', 'missing', 'body']);
      if (field === 'missing') {
        const gone = pick(['model', 'input', 'voice']);
        delete fields[gone];
        // A missing model or voice takes Kokoro-FastAPI's defaults (kokoro, af_heart): break another
        // field so that nothing is synthesized.
        if (gone === 'model') fields.voice = '"no_such_voice"';
        if (gone === 'voice') fields.input = '""';
      } else if (field === 'body') {
        return {
          category,
          method: 'POST',
          path: '/v1/audio/speech',
          headers: { ...json, ...auth },
          body: pick(['', 'not json', '[]', 'null', '{"model":', '"x"']),
          openai: true,
        };
      } else {
        fields[field] = pick([
          ...ODD_VALUES.filter((v) => !v.startsWith('"')),
          '"nope"',
          '"flac"',
          '"opus"',
          '"1.0"',
          '"\\ud800"',
          '""',
          '0.1',
          '4.5',
        ]);
        // An odd value that happens to be valid (e.g. speed 1) must not synthesize: break the voice.
        if (field !== 'voice') fields.voice = '"no_such_voice"';
      }
      return {
        category,
        method: 'POST',
        path: '/v1/audio/speech',
        headers: { ...json, ...auth },
        body: objectText(fields),
        openai: true,
      };
    }
    case 'raw_socket': {
      const full = objectText({ ...baseFields(), voice_code: '"no_such_voice"' });
      const kind = pick(['short_length', 'bad_length', 'negative_length', 'chunked_bad', 'chunked_ok']);
      const headers: Record<string, string> = { ...json, ...auth };
      if (kind === 'short_length') headers['content-length'] = String(full.length - 1 - int(5));
      else if (kind === 'bad_length') headers['content-length'] = pick(['abc', '1e3', '0x10', '']);
      else if (kind === 'negative_length') headers['content-length'] = '-1';
      else headers['transfer-encoding'] = 'chunked';
      let body: string = full;
      if (kind === 'chunked_ok') body = `${full.length.toString(16)}\r\n${full}\r\n0\r\n\r\n`;
      if (kind === 'chunked_bad') body = `zz\r\n${full}\r\n0\r\n\r\n`;
      if (kind === 'short_length') body = full.slice(0, Number(headers['content-length']));
      return { category, method: 'POST', path: '/api/v1/tts', headers, body, raw: true };
    }
  }
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Sends one case: through undici, or as raw bytes over a socket for what undici would refuse. */
export async function send(url: string, c: FuzzCase, timeoutMs = 15_000): Promise<Answer> {
  if (!c.raw) {
    const response = await request(`${url}${c.path}`, {
      method: c.method as 'GET',
      headers: c.headers,
      ...(c.body !== undefined ? { body: c.body } : {}),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const text = Buffer.from(await response.body.arrayBuffer()).toString('utf8');
    return { status: response.statusCode, headers: response.headers, text };
  }
  const { hostname, port } = new URL(url);
  const body = c.body === undefined ? Buffer.alloc(0) : Buffer.from(c.body);
  const headers: Record<string, string> = { host: `${hostname}:${port}`, connection: 'close', ...c.headers };
  if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) {
    headers['content-length'] = String(body.length);
  }
  const head =
    `${c.method} ${c.path} HTTP/1.1\r\n` +
    Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('') +
    '\r\n';
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('raw request timed out'));
    }, timeoutMs);
    socket.on('data', (d: Buffer) => chunks.push(d));
    let socketError = '';
    socket.on('error', (error: NodeJS.ErrnoException) => {
      socketError ||= `, ${error.code ?? error.message}`;
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const all = Buffer.concat(chunks).toString('utf8');
      const match = /^HTTP\/1\.1 (\d{3})/.exec(all);
      if (!match) return reject(new Error(`no HTTP answer (${all.length} bytes${socketError})`));
      const split = all.indexOf('\r\n\r\n');
      const headerLines = all.slice(0, split).split('\r\n').slice(1);
      const parsed: Record<string, string> = {};
      for (const line of headerLines) {
        const i = line.indexOf(':');
        parsed[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      let text = all.slice(split + 4);
      if (parsed['transfer-encoding'] === 'chunked') text = dechunk(text);
      resolve({ status: Number(match[1]), headers: parsed, text });
    });
    socket.write(head);
    socket.end(body);
  });
}

function dechunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const eol = rest.indexOf('\r\n');
    if (eol < 0) return out;
    const size = parseInt(rest.slice(0, eol), 16);
    if (!size) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}

/** Returns why an answer is wrong, or undefined when it is the expected 4xx error. */
export function checkAnswer(c: FuzzCase, answer: Answer): string | undefined {
  if (answer.status < 400 || answer.status >= 500) return `status ${answer.status}`;
  if (/\bat .*[\\/].*:\d+|node:internal|\.ts:\d+|\.js:\d+|\/work\/|node_modules/.test(answer.text)) {
    return 'stack trace or file path in the body';
  }
  let json: unknown;
  try {
    json = JSON.parse(answer.text);
  } catch {
    return `body is not JSON: ${JSON.stringify(answer.text.slice(0, 80))}`;
  }
  const body = json as Record<string, unknown>;
  if (c.openai) {
    const error = body?.error as Record<string, unknown> | undefined;
    if (
      !error ||
      Object.keys(body).length !== 1 ||
      typeof error.message !== 'string' ||
      typeof error.type !== 'string' ||
      typeof error.code !== 'string'
    ) {
      return `not the OpenAI error shape: ${answer.text.slice(0, 120)}`;
    }
    return undefined;
  }
  const keys = Object.keys(body ?? {})
    .filter((key) => key !== 'error_details')
    .sort()
    .join(',');
  // error_details (docs/API.md, "Error codes") is optional: plain values only, never nested.
  const details = body?.error_details;
  if (
    details !== undefined &&
    (typeof details !== 'object' ||
      details === null ||
      Array.isArray(details) ||
      Object.values(details).some((v) => v !== null && typeof v === 'object'))
  ) {
    return `error_details is not an object of plain values: ${answer.text.slice(0, 120)}`;
  }
  if (
    keys !== 'error_code,error_message,status' ||
    body.status !== 0 ||
    typeof body.error_code !== 'string' ||
    typeof body.error_message !== 'string'
  ) {
    return `not the spec error shape: ${answer.text.slice(0, 120)}`;
  }
  return undefined;
}
