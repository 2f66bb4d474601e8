/**
 * SSML input over real HTTP on the full core: a malformed document is a 400 SSML_INVALID at
 * submit with its line and column, the charge counts the spoken text (not the markup), an
 * unsupported element is read with a warning in the request detail, the SRT shows no tags, and
 * a `<voice>` switch in the document is rendered.
 */

import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestDetailSchema } from '../../../electron/shared/api';
import { fetchUrl, startTestCore, type TestCore } from './helpers';

let t: TestCore;

beforeAll(async () => {
  t = await startTestCore();
});
afterAll(async () => {
  await t?.close();
});

const VOICE = 'en_female_emily_us';

const submit = (input_text: string, key?: string, extra: Record<string, unknown> = {}) =>
  t.call('POST', '/api/v1/tts', {
    body: { input_text, voice_code: VOICE, response_type: 'direct', generate_srt: true, ...extra },
    ...(key ? { key } : {}),
  });

describe('SSML at /api/v1/tts', () => {
  it('answers a malformed document with 400 SSML_INVALID, naming the line and column', async () => {
    const cases: Array<[string, RegExp]> = [
      [
        '<speak>\n  Hello <emphasis>there\n</speak>',
        /<\/speak> found where <\/emphasis> was expected \(line 3, column 1\)/,
      ],
      ['<speak>Fish &chips;</speak>', /unknown entity "&chips;" .*\(line 1, column 13\)/],
      [
        '<speak>Hi <prosody rate="400%">there</prosody></speak>',
        /outside the API's bounds .*\(line 1, column 20\)/,
      ],
      [
        '<speak>Hi <voice name="nobody">there</voice></speak>',
        /unknown voice "nobody".*\(line 1, column 18\)/,
      ],
      ['<speak>Hi <break time="soon"/></speak>', /break time "soon"/],
      ['<speak>Hi <prosody pitch="+3st">there</speak>', /<\/speak> found where <\/prosody> was expected/],
    ];
    for (const [input, message] of cases) {
      const answer = await submit(input);
      expect(answer.status, input).toBe(400);
      expect(answer.json).toMatchObject({ status: 0, error_code: 'SSML_INVALID' });
      expect(answer.json.error_message).toMatch(message);
    }
  });

  it('charges the spoken text, not the markup, and warns of an unsupported element in the detail', async () => {
    const key = await t.newKey(1_000_000);
    const input =
      '<speak><p>Hello <emphasis level="strong">there</emphasis>.</p>' +
      '<p>Read <sub alias="World Wide Web">WWW</sub> <amazon:effect name="whispered">quietly</amazon:effect>.</p></speak>';
    const spoken = 'Hello there.\n\nRead WWW quietly.';
    const answer = await submit(input, key);
    expect(answer.status).toBe(200);
    const record = answer.json.result;
    expect(record).toMatchObject({ status: 'SUCCESS', characters: spoken.length });
    // 1000 credits per 1000 characters.
    expect(record.cost).toBe(spoken.length);
    const detail = (await t.call('GET', `/api/v1/tts/${record.request_id}`, { key })).json.result;
    expect(Value.Check(RequestDetailSchema, detail)).toBe(true);
    expect(detail.input_text).toBe(input);
    expect(detail.warnings).toEqual([
      `<amazon:effect> is not supported; its text is read as written (line 1, column ${input.indexOf('<amazon') + 1})`,
    ]);
    const srt = (await fetchUrl(detail.srt_link, 'GET')).body.toString('utf8');
    expect(srt).toContain('Read WWW quietly.');
    expect(srt).not.toMatch(/<\/?[a-z]/u);
  });

  it('answers a malformed document in an audition with 400 SSML_INVALID before any audio', async () => {
    const path = `/api/v1/voices/${VOICE}/audition`;
    const bad = await t.call('POST', path, { body: { text: '<speak>Hi <s>there</speak>' } });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ status: 0, error_code: 'SSML_INVALID' });
    expect(bad.json.error_message).toMatch(/\(line 1, column 19\)/);
    const good = await t.call('POST', path, {
      body: { text: '<speak>Hi <emphasis>there</emphasis>.</speak>' },
    });
    expect(good.status).toBe(200);
    expect(good.headers['content-type']).toBe('audio/wav');
  });

  it('leaves plain text without warnings, and renders a voice switch', async () => {
    const plain = (await submit('Plain <b>text</b> is not SSML.')).json.result;
    expect(plain.status).toBe('SUCCESS');
    expect(plain).not.toHaveProperty('warnings');
    const dialogue = await submit(
      '<speak>Where were you? <voice name="en_male_onyx_default">Out.</voice></speak>',
    );
    expect(dialogue.json.result).toMatchObject({ status: 'SUCCESS', engine: 'espeak', warnings: [] });
  });
});
