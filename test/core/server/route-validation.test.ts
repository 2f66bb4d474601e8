/**
 * Fastify's validation of the routes that carry `validate` (route-validation.ts), through the
 * app (`app.inject`, no engine): keys are checked before bodies and queries, each failure is the
 * API's error shape naming the field, the submit still reads its strings, and the handlers get
 * the values as sent (nothing coerced, nothing removed).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import {
  formatSchemaProblem,
  ruleWording,
  schemaProblem,
} from '../../../electron/core/server/route-validation';
import { buildTestApp, type TestApp } from './inject';

/** A page of another site that may call the API with a key (`--allow-origin`), never sign in. */
const OTHER_SITE = 'https://reader.example';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ allowedOrigins: [OTHER_SITE] });
});
afterAll(async () => {
  await t.close();
});

describe('keys before schemas', () => {
  it.each([
    ['POST', '/api/v1/exports', { body: { input_text: 3 } }],
    ['GET', '/api/v1/exports?page=0', {}],
    ['GET', '/api/v1/usage?page_size=500', {}],
    ['GET', '/api/v1/tts?page=x', {}],
    ['POST', '/api/v1/voices/en_female_emily_us/audition', { body: { volume: 'loud' } }],
  ] as const)('%s %s with a wrong key and a bad input is 401', async (method, path, options) => {
    const res = await t.call(method, path, { ...options, key: 'nsk_wrong' });
    expect(res.status, res.text).toBe(401);
    expect(res.json.error_code).toBe('UNAUTHORIZED');
  });
});

describe('checks that come before the schema', () => {
  it('sign-in from another site is FORBIDDEN_ORIGIN whatever its body; from the studio a bad body is INVALID_FIELD', async () => {
    const body = { token: 5 };
    const foreign = await t.call('POST', '/api/v1/session/sign-in', {
      key: null,
      body,
      headers: { origin: OTHER_SITE },
    });
    expect([foreign.status, foreign.json.error_code]).toEqual([403, 'FORBIDDEN_ORIGIN']);
    const own = await t.call('POST', '/api/v1/session/sign-in', { key: null, body });
    expect(own.json).toMatchObject({
      error_code: 'INVALID_FIELD',
      error_message: 'token must be the token of a sign-in address.',
    });
  });
  it('a manuscript without a usable file_name is MISSING_FIELD, before its body is read', async () => {
    for (const query of ['', '?file_name=%20', '?file_name=a&file_name=b']) {
      const res = await t.call('POST', `/api/v1/manuscripts/read${query}`, {
        raw: Buffer.from('Chapter 1\n\nText.'),
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect([res.status, res.json.error_code], query).toEqual([400, 'MISSING_FIELD']);
    }
  });
});

describe('the one formatter, through the routes', () => {
  it('a list query names the parameter and its rule', async () => {
    const res = await t.call('GET', '/api/v1/exports?page=0');
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      status: 0,
      error_code: 'INVALID_FIELD',
      error_message: 'page must be a positive integer.',
    });
    expect((await t.call('GET', '/api/v1/usage?page_size=101')).json.error_message).toBe(
      'page_size must be from 1 to 100.',
    );
  });
  it('an export body: not an object, a missing field, a field against its rule', async () => {
    const notObject = await t.call('POST', '/api/v1/exports', { body: [1] });
    expect([notObject.status, notObject.json.error_code]).toEqual([400, 'INVALID_JSON']);
    const missing = await t.call('POST', '/api/v1/exports', { body: { input_text: 'Hi.' } });
    expect(missing.json).toMatchObject({
      error_code: 'MISSING_FIELD',
      error_message: 'voice_code is required.',
      error_details: { field: 'voice_code' },
    });
    const wrong = await t.call('POST', '/api/v1/exports', {
      body: { input_text: 'Hi.', voice_code: 'en_female_emily_us', format: 'ogg' },
    });
    expect(wrong.json).toMatchObject({
      error_code: 'INVALID_FIELD',
      error_message: 'format must be "m4b", "mp3" or "folder".',
    });
  });
  it('the submit reads its strings before the schema, and words a string by its rule', async () => {
    const ok = await t.call('POST', '/api/v1/tts', {
      body: { input_text: 'Hi.', voice_code: 'en_female_emily_us', bitrate: '64', generate_srt: 'true' },
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.result.bitrate).toBe(64);
    const bad = await t.call('POST', '/api/v1/tts', {
      body: { input_text: 'Hi.', voice_code: 'en_female_emily_us', volume: '1e2' },
    });
    expect(bad.json.error_message).toBe(
      'volume must be an integer from 50 to 150; a string must be a plain decimal number such as "100".',
    );
  });
});

describe('formatSchemaProblem', () => {
  const schema = Type.Object({ n: Type.Integer(), pick: Type.Union([Type.Literal('a'), Type.Literal('b')]) });
  const problem = (value: unknown) => schemaProblem('body', Value.Errors(schema, value).First()!, value);
  it('reads the first problem: field, missing, a choice by its words', () => {
    expect(problem({ pick: 'a' })).toMatchObject({ field: 'n', missing: true });
    expect(problem({ n: 1, pick: 'c' }).message).toBe('must be one of a, b');
  });
  it('carries the whole path of a nested problem beside its top-level field', () => {
    const nested = Type.Object({
      base: Type.Object({ parts: Type.Array(Type.Object({ w: Type.Number() })) }),
    });
    const value = { base: { parts: [{ w: 1 }, { w: 'x' }] } };
    const found = schemaProblem('body', Value.Errors(nested, value).First()!, value);
    expect([found.field, found.path]).toEqual(['base', '/base/parts/1/w']);
    expect(problem('text').path).toBe('');
  });
  it('defaults to `<field>: <rule>.`, INVALID_JSON for a body that is not an object', () => {
    const error = formatSchemaProblem(problem({ n: 1.5, pick: 'a' }));
    expect([error.code, error.message, error.details]).toEqual([
      'INVALID_FIELD',
      'n: Expected integer.',
      { field: 'n' },
    ]);
    expect(formatSchemaProblem(problem('text')).code).toBe('INVALID_JSON');
  });
  it('a route wording takes over: its sentences, MISSING_FIELD for a missing field', () => {
    const wording = ruleWording({ n: 'n must be a whole number' });
    expect(formatSchemaProblem(problem({ n: 'x', pick: 'a' }), wording).message).toBe(
      'n must be a whole number.',
    );
    expect(formatSchemaProblem(problem({ pick: 'a' }), wording).code).toBe('MISSING_FIELD');
  });
});
