/**
 * The server names a finished request's files as the studio does (shared/download-name.ts):
 * Content-Disposition carries the first words of the text, the voice and the format, in UTF-8
 * (filename*) with an ASCII fallback (filename), over real HTTP.
 */

import { afterAll, beforeAll, expect, it } from 'vitest';
import { contentDisposition, downloadName } from '../../../electron/shared/download-name';
import { fetchUrl, startTestCore, type TestCore } from './helpers';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(async () => t?.close());

it('audio and subtitles are named after the text and the voice', async () => {
  const input_text = 'Người gác đèn leo lên cầu thang lúc chạng vạng.';
  const submit = await t.call('POST', '/api/v1/tts', {
    body: { input_text, voice_code: 'vi_female_kieunhi_mn', generate_srt: true },
  });
  expect(submit.status).toBe(200);
  const id = submit.json.result.request_id as string;
  await t.core.jobs.whenFinished(id);
  const detail = (await t.call('GET', `/api/v1/tts/${id}`)).json.result;
  expect(detail.status).toBe('SUCCESS');

  const audio = await fetchUrl(detail.audio_link as string, 'GET');
  expect(audio.status).toBe(200);
  const header = String(audio.headers['content-disposition']);
  expect(header).toBe(
    contentDisposition(
      'inline',
      downloadName({ text: input_text, voice: 'vi_female_kieunhi_mn', extension: 'mp3' }),
    ),
  );
  expect(header).toContain('filename="nguoi-gac-den-leo_vi_female_kieunhi_mn.mp3"');
  const utf8 = /filename\*=UTF-8''(.+)$/.exec(header)?.[1];
  expect(decodeURIComponent(utf8!)).toBe('người-gác-đèn-leo_vi_female_kieunhi_mn.mp3');

  const srt = await fetchUrl(detail.srt_link as string, 'GET');
  expect(srt.headers['content-disposition']).toContain(
    'filename="nguoi-gac-den-leo_vi_female_kieunhi_mn.srt"',
  );
});
