/**
 * Errors never carry a path of this machine (issue 36): renders whose files cannot be written,
 * provoked for real by putting a plain file where the data folder's audio folder goes, answer
 * and record their failure without naming the data folder. Over real HTTP on the full core.
 */

import { rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestCore, type TestCore } from './helpers';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(() => t?.close());

/** No answer names the data folder, the home folder, or any absolute path of ours. */
function expectNoPath(text: string) {
  expect(text).not.toContain(t.dir);
  expect(text).not.toContain(homedir());
  expect(text).not.toMatch(/\/(tmp|home|var|Users)\//);
}

describe('file-system errors', () => {
  it('a render whose audio folder is a file fails without naming a path, in every answer', async () => {
    // The attack is any request whose failure Node words with the path it could not use.
    const audio = join(t.dir, 'audio');
    rmSync(audio, { recursive: true, force: true });
    writeFileSync(audio, 'not a folder');
    try {
      const answers: string[] = [];
      const direct = await t.call('POST', '/api/v1/tts', {
        body: {
          input_text: 'It cannot be written.',
          voice_code: 'en_female_emily_us',
          response_type: 'direct',
        },
      });
      answers.push(direct.text);
      const id = direct.json.result?.request_id as string;
      expect(id, direct.text).toBeTruthy();
      const detail = await eventually(async () => {
        const res = await t.call('GET', `/api/v1/tts/${id}`);
        return res.json.result.status === 'FAILURE' ? res : undefined;
      });
      answers.push(detail.text);
      expect(detail.json.result.error_code).toBe('OUTPUT_FAILED');
      answers.push((await t.call('GET', '/api/v1/tts?page=1&page_size=10')).text);
      answers.push((await t.call('GET', `/api/v1/tts/${id}/chapters`)).text);
      const openai = await t.call('POST', '/v1/audio/speech', {
        body: { model: 'tts-1', input: 'It cannot be written either.', voice: 'alloy' },
      });
      expect(openai.status).toBeGreaterThanOrEqual(400);
      answers.push(openai.text);
      for (const answer of answers) expectNoPath(answer);
    } finally {
      rmSync(audio, { force: true });
    }
  });
});
