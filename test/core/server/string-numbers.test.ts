/**
 * Numbers sent as strings to POST /api/v1/tts, as the service's real clients send them
 * (`"bitrate": "128"`, `"speed_rate": "1.0"`, `"generate_srt": "true"`), over real HTTP: a plain
 * decimal string counts as its number and then meets the same rules; anything else is refused
 * with the error a wrong number gets. Unknown extra fields (`app_id`) are ignored.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestCore, type TestCore } from './helpers';
import type { HttpResult } from './http';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(async () => {
  await t?.close();
});

const valid = { input_text: 'Hi.', voice_code: 'en_male_echo_default' };

const submit = (body: Record<string, unknown>) =>
  t.call('POST', '/api/v1/tts', { body: { ...valid, ...body } });

function expectInvalidField(res: HttpResult, field: string): void {
  expect(res.status, res.text).toBe(400);
  expect(res.headers['content-type']).toBe('text/json; charset=utf-8');
  // The spec's three fields, and the particulars (error_details, an extension: docs/API.md).
  const { error_details: _details, ...spec } = res.json as Record<string, unknown>;
  expect(Object.keys(spec).sort()).toEqual(['error_code', 'error_message', 'status']);
  expect(res.json).toMatchObject({ status: 0, error_code: 'INVALID_FIELD' });
  expect(res.json.error_message).toContain(field);
}

describe('plain decimal strings are read as their numbers', () => {
  const accepted: [field: string, sent: string, value: number | boolean][] = [
    ['bitrate', '8', 8],
    ['bitrate', '128', 128],
    ['bitrate', '160', 160],
    ['bitrate', '128.0', 128],
    ['speed_rate', '1.0', 1],
    ['speed_rate', '0.5', 0.5],
    ['speed_rate', '2', 2],
    ['speed_rate', '1.7', 1.7],
    ['speed_rate', '1.50', 1.5],
    ['pitch_rate', '1.2', 1.2],
    ['pitch_rate', '0.5', 0.5],
    ['pitch_rate', '2.0', 2],
    ['volume', '100', 100],
    ['volume', '50', 50],
    ['volume', '150', 150],
    ['volume', '100.0', 100],
    ['generate_srt', 'true', true],
    ['generate_srt', 'false', false],
  ];
  for (const [field, sent, value] of accepted) {
    it(`${field}: ${JSON.stringify(sent)} → ${String(value)}`, async () => {
      const res = await submit({ [field]: sent });
      expect(res.status, res.text).toBe(200);
      expect(res.json.status).toBe(1);
      // The submit record echoes bitrate and the rates; the request detail has every option.
      const detail = (await t.call('GET', `/api/v1/tts/${res.json.result.request_id}`)).json.result;
      expect(detail[field]).toBe(value);
      if (field in res.json.result) expect(res.json.result[field]).toBe(value);
    });
  }

  it('all at once, as a real client sends them, with extra fields such as app_id ignored', async () => {
    const res = await submit({
      app_id: 'my-app',
      user_id: 42,
      extra: { nested: [1, 'two'] },
      response_type: 'indirect',
      bitrate: '64',
      speed_rate: '1.0',
      pitch_rate: '1.2',
      volume: '120',
      generate_srt: 'true',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.result).toMatchObject({ bitrate: 64, speed_rate: 1, pitch_rate: 1.2, status: 'new' });
    expect(res.json.result.srt_link).toMatch(/\/subtitles\.srt$/);
    expect(res.json.result).not.toHaveProperty('app_id');
    const detail = (await t.call('GET', `/api/v1/tts/${res.json.result.request_id}`)).json.result;
    expect(detail).toMatchObject({ volume: 120, generate_srt: true });
  });
});

describe('a decimal string meets the same rules as its number, with the same error', () => {
  const ruled: [field: string, sent: string, number: number][] = [
    ['speed_rate', '1.25', 1.25],
    ['speed_rate', '0.4', 0.4],
    ['speed_rate', '2.1', 2.1],
    ['speed_rate', '-1', -1],
    ['speed_rate', '0', 0],
    ['pitch_rate', '1.05', 1.05],
    ['pitch_rate', '2.5', 2.5],
    ['bitrate', '129', 129],
    ['bitrate', '96', 96],
    ['bitrate', '0', 0],
    ['volume', '49', 49],
    ['volume', '151', 151],
    ['volume', '100.5', 100.5],
    ['volume', '-100', -100],
  ];
  for (const [field, sent, number] of ruled) {
    it(`${field}: ${JSON.stringify(sent)} is refused as ${number} is`, async () => {
      const asString = await submit({ [field]: sent });
      const asNumber = await submit({ [field]: number });
      expectInvalidField(asString, field);
      expect(asString.json).toEqual(asNumber.json);
    });
  }
});

describe('strings that are not plain decimals are refused', () => {
  const notDecimal = ['abc', '', '1e3', ' 1', '1 ', '1.', '.5', '0x10', '+1', '1,5', 'NaN', 'Infinity', '١'];
  for (const field of ['bitrate', 'speed_rate', 'pitch_rate', 'volume']) {
    it(`${field}: ${notDecimal.map((s) => JSON.stringify(s)).join(', ')}`, async () => {
      const wrongNumber = await submit({ [field]: 3.14159 });
      expectInvalidField(wrongNumber, field);
      for (const sent of notDecimal) {
        const res = await submit({ [field]: sent });
        expectInvalidField(res, field);
        // The field's rule, then what a string must look like.
        const rule = (wrongNumber.json.error_message as string).replace(/\.$/, '');
        expect(res.json.error_message, JSON.stringify(sent)).toContain(rule);
        expect(res.json.error_message).toMatch(
          /a string must be a plain decimal number such as "\d+(\.\d)?"\.$/,
        );
      }
    });
  }

  it('generate_srt: only "true" and "false" are read as booleans', async () => {
    for (const sent of ['yes', 'TRUE', 'True', '1', '0', '', ' true']) {
      const res = await submit({ generate_srt: sent });
      expectInvalidField(res, 'generate_srt');
      expect(res.json.error_message).toBe(
        'generate_srt must be true or false (or the strings "true" and "false").',
      );
    }
  });

  it('other JSON types stay refused', async () => {
    for (const [field, value] of [
      ['bitrate', true],
      ['bitrate', [128]],
      ['speed_rate', null],
      ['volume', { value: 100 }],
      ['generate_srt', 1],
    ] as const) {
      expectInvalidField(await submit({ [field]: value }), field);
    }
  });
});
