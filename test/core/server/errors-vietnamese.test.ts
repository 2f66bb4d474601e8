/**
 * Errors in the user's language (issue 38): errors provoked for real over HTTP on 127.0.0.1 on
 * the core with a signed-in studio, on the fake engine as speech is not the subject (bad SSML,
 * IPA a voice cannot say, manuscripts that cannot be read, an archive that is no voice pack, a
 * spent sign-in address) answer `error_code`, the English
 * `error_message` and `error_details`; the studio's sentence for each, in Vietnamese
 * (describeError with vi.json), holds no English and no path, and the API's own answer names
 * no path of this machine (nor the temporary file an upload was written to).
 */

import { homedir } from 'node:os';
import { join } from 'node:path';
import { createIntl } from 'react-intl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RUN_ATTEMPTS } from '../../../electron/core/jobs/runner';
import { storedErrorDetails } from '../../../electron/core/platform/error-details';
import { AppError } from '../../../electron/shared/errors';
import { describeError, describeFailure } from '../../../renderer/src/i18n/error-messages';
import en from '../../../renderer/src/i18n/messages/en.json';
import vi from '../../../renderer/src/i18n/messages/vi.json';
import { englishOutsideQuotes } from '../../fixtures/english-words';
import {
  eventually,
  FAILING_TEXT,
  failRendersWith,
  startFakeEngineStudio,
  type SignedInTestCore,
} from './helpers';
import type { HttpResult } from './http';

const vietnamese = createIntl({ locale: 'vi', messages: vi });
const english = createIntl({ locale: 'en', messages: en });

let t: SignedInTestCore;
let signedIn: Record<string, string>;

beforeAll(async () => {
  t = await startFakeEngineStudio();
  ({ headers: signedIn } = t.studio);
});
afterAll(async () => {
  await t?.close();
});

const studio = (method: 'POST', path: string, options: { body?: unknown; raw?: Buffer; type?: string }) =>
  t.call(method, path, {
    key: null,
    headers: { ...signedIn, ...(options.type ? { 'content-type': options.type } : {}) },
    ...(options.body !== undefined ? { body: options.body } : {}),
    ...(options.raw !== undefined ? { raw: options.raw } : {}),
  });
const upload = (path: string, raw: Buffer | string) =>
  t.call('POST', path, { raw, headers: { 'content-type': 'application/octet-stream' } });
const tts = (input_text: string) =>
  t.call('POST', '/api/v1/tts', { body: { input_text, voice_code: 'vi_female_thuytrang_mb' } });

function expectNoPath(text: string) {
  expect(text).not.toContain(t.dir);
  expect(text).not.toContain(homedir());
  expect(text).not.toContain('.import-');
  expect(text).not.toMatch(/\/(tmp|home|var|Users)\//);
}

/** The answer is an error with details; its Vietnamese sentence is Vietnamese, whole, without a path. */
function expectVietnamese(res: HttpResult, code: string, mustSay: string | RegExp): string {
  expect(res.json?.status, res.text).toBe(0);
  expect(res.json.error_code, res.text).toBe(code);
  expectNoPath(res.text);
  const error = {
    code: res.json.error_code as string,
    message: res.json.error_message as string,
    details: res.json.error_details,
  };
  const sentence = describeError(vietnamese, error);
  expect(sentence).not.toContain(error.message);
  expect(englishOutsideQuotes(sentence), sentence).toEqual([]);
  expect(sentence).toMatch(/[ạảãáàâấầẩẫậăắằẳẵặđẹẻẽéèêếềểễệịỉĩíìọỏõóòôốồổỗộơớờởỡợụủũúùưứừửữựỵỷỹýỳ]/u);
  expect(sentence).toMatch(mustSay);
  expectNoPath(sentence);
  // The English studio keeps the server's own sentence.
  expect(describeError(english, error)).toBe(error.message);
  return sentence;
}

describe('errors provoked over HTTP, worded in Vietnamese from their code and details', () => {
  it('SSML: the line, the column and what is wrong', async () => {
    const unclosed = await tts('<speak>Xin chào\n<prosody rate="slow">các bạn</speak>');
    expect(unclosed.json.error_details).toMatchObject({ line: 2, reason: 'wrong_close', tag: 'speak' });
    expectVietnamese(
      unclosed,
      'SSML_INVALID',
      /^Không đọc được SSML\. Ở dòng 2, cột \d+: Gặp thẻ đóng <\/speak>/u,
    );
    const bounds = await tts('<speak><prosody rate="5">Nhanh quá</prosody></speak>');
    expectVietnamese(
      bounds,
      'SSML_INVALID',
      /“5”.*thuộc tính rate trong <prosody> nằm ngoài khoảng cho phép/u,
    );
    const outside = await tts('<speak>Chào bạn</speak> và thêm nữa');
    expectVietnamese(outside, 'SSML_INVALID', 'Mọi văn bản phải nằm giữa <speak> và </speak>.');
    const entity = await tts('<speak>Tôm &amp cua</speak>');
    expectVietnamese(entity, 'SSML_INVALID', /“&” không phải là thực thể hợp lệ/u);
    const phoneme = await tts('<speak><phoneme ph="ʃɪ˥">Siobhan</phoneme></speak>');
    expect(phoneme.json.error_details).toMatchObject({ reason: 'ipa_tone', symbol: '˥', position: 3 });
    expectVietnamese(phoneme, 'SSML_INVALID', /dấu thanh như “˥” \(ký tự thứ 3\)/u);
  });

  it('IPA in a lexicon entry: the symbol and its place', async () => {
    const res = await studio('POST', '/api/v1/lexicon', {
      body: { language: 'en', match: 'Siobhan', kind: 'ipa', replacement: 'ʃɪˈvɔːnʘ' },
    });
    expect(res.json.error_details).toMatchObject({ field: 'replacement', reason: 'ipa_symbol', symbol: 'ʘ' });
    expectVietnamese(res, 'INVALID_FIELD', 'Ký hiệu IPA “ʘ” (ký tự thứ 8) không được hỗ trợ.');
  });

  it('manuscript refusals: the file by its own name and why', async () => {
    const epub = await upload('/api/v1/projects/import?file_name=so-do.epub', Buffer.from('PK\x03\x04hỏng'));
    expect(epub.json.error_details).toEqual({ file: 'so-do.epub', format: 'epub' });
    expectVietnamese(epub, 'MANUSCRIPT_INVALID', 'Không đọc được “so-do.epub” dưới dạng EPUB');
    const pdf = await upload('/api/v1/projects/import?file_name=tat-den.pdf', '%PDF-1.4 hỏng');
    expectVietnamese(pdf, 'MANUSCRIPT_INVALID', '“tat-den.pdf” dưới dạng PDF');
    const kind = await upload('/api/v1/projects/import?file_name=truyen.docx', 'không phải docx');
    expectVietnamese(kind, 'UNSUPPORTED_MEDIA_TYPE', 'Tệp “truyen.docx” không phải là bản thảo');
    const empty = await upload('/api/v1/projects/import?file_name=rong.txt', '');
    expectVietnamese(empty, 'MANUSCRIPT_INVALID', 'Tệp “rong.txt” trống.');
    const archive = await upload('/api/v1/projects/import-archive?file_name=sach.narration.zip', 'zip?');
    expectVietnamese(archive, 'MANUSCRIPT_INVALID', 'Không đọc được “sach.narration.zip”');
  });

  it('a voice-pack archive that cannot be used is named as sent, not by its temporary file', async () => {
    const named = await studio('POST', '/api/v1/voice-packs/import?file_name=giong-doc.zip', {
      raw: Buffer.from('không phải zip'),
      type: 'application/zip',
    });
    expect(named.json.error_message, named.text).toContain('"giong-doc.zip"');
    expect(named.json.error_details).toMatchObject({ file: 'giong-doc.zip' });
    expectVietnamese(named, 'VOICE_PACK_INVALID', 'Tệp: “giong-doc.zip”.');
    const unnamed = await studio('POST', '/api/v1/voice-packs/import', {
      raw: Buffer.from('không phải zip'),
      type: 'application/zip',
    });
    expect(unnamed.json.error_message, unnamed.text).toMatch(/^The archive /);
    expectVietnamese(unnamed, 'VOICE_PACK_INVALID', 'Gói giọng đọc bị hỏng hoặc không đầy đủ.');
  });

  it('a sign-in address that was already used', async () => {
    const res = await t.call('POST', '/api/v1/session/sign-in', {
      key: null,
      body: { token: new URL(t.spentLoginUrl).searchParams.get('token') },
    });
    expect(res.json.error_details).toMatchObject({ reason: 'sign_in_address_refused', minutes: 10 });
    expectVietnamese(res, 'UNAUTHORIZED', /^Địa chỉ đăng nhập này sai, đã được dùng hoặc đã quá 10 phút/u);
  });
});

describe('the particular each error names, in its details and in the Vietnamese sentence', () => {
  const missingId = 'f'.repeat(32);

  it('a missing field, an unknown voice, a text over the limit', async () => {
    const missing = await t.call('POST', '/api/v1/tts', { body: { voice_code: 'vi_female_thuytrang_mb' } });
    expect(missing.json.error_details).toEqual({ field: 'input_text' });
    expectVietnamese(missing, 'MISSING_FIELD', 'Cần có trường “input_text”.');
    const voice = await t.call('POST', '/api/v1/tts', {
      body: { input_text: 'Chào', voice_code: 'vi_khong_co' },
    });
    expect(voice.json.error_details).toEqual({ field: 'voice_code', voice_code: 'vi_khong_co' });
    expectVietnamese(voice, 'UNKNOWN_VOICE', 'Không có giọng đọc “vi_khong_co”.');
    const long = await tts('a'.repeat(100_001));
    expect(long.json.error_details).toEqual({ field: 'input_text', characters: 100_001, limit: 100_000 });
    expectVietnamese(long, 'TEXT_TOO_LONG', /^Văn bản có 100.001 ký tự; tối đa được phép là 100.000\.$/u);
  });

  it('the project, the segment, the request, the export, the key, the custom voice not found', async () => {
    const project = await t.call('GET', `/api/v1/projects/${missingId}`);
    expect(project.json.error_details).toEqual({ part: 'project', id: missingId });
    expectVietnamese(project, 'PROJECT_NOT_FOUND', `Không có dự án “${missingId}”.`);
    const made = await t.call('POST', '/api/v1/projects', { body: { title: 'Tắt đèn' } });
    const projectId = made.json.result.project.id as string;
    const segment = await t.call('GET', `/api/v1/projects/${projectId}/segments/khong-co/audio`);
    expect(segment.json.error_details).toEqual({ part: 'segment', id: 'khong-co' });
    expectVietnamese(segment, 'PROJECT_NOT_FOUND', 'Dự án này không có đoạn “khong-co”.');
    const cover = await t.call('GET', `/api/v1/projects/${projectId}/cover`);
    expect(cover.json.error_details).toMatchObject({ part: 'cover' });
    expectVietnamese(cover, 'PROJECT_NOT_FOUND', 'Dự án này không có ảnh bìa.');
    const request = await t.call('GET', `/api/v1/tts/${missingId}`);
    expect(request.json.error_details).toEqual({ id: missingId });
    expectVietnamese(
      request,
      'REQUEST_NOT_FOUND',
      `Không có yêu cầu “${missingId}” nào được gửi bằng khoá API này.`,
    );
    const exported = await t.call('GET', `/api/v1/exports/${missingId}`);
    expect(exported.json.error_details).toEqual({ id: missingId });
    expectVietnamese(exported, 'EXPORT_NOT_FOUND', `Không có bản xuất “${missingId}”`);
    const key = await studio('POST', `/api/v1/keys/${missingId}/credits`, { body: { credits: 5 } });
    expect(key.json.error_details).toEqual({ id: missingId });
    expectVietnamese(key, 'KEY_NOT_FOUND', `Không có khoá API “${missingId}”.`);
    const custom = await t.call('GET', '/api/v1/custom-voices/giong-khong-co');
    expect(custom.json.error_details).toEqual({ id: 'giong-khong-co' });
    expectVietnamese(custom, 'CUSTOM_VOICE_NOT_FOUND', 'Không có giọng đọc tự tạo “giong-khong-co”.');
  });
});

describe('a failed segment in the API answer, worded in Vietnamese', () => {
  it('keeps its code and details (no path) and clears them once it renders again', async () => {
    const imported = await upload(
      '/api/v1/projects/import?file_name=tat-den.txt',
      'Chương một\n\nChị Dậu bế con ra đầu làng.\n',
    );
    expect(imported.status, imported.text).toBe(201);
    const projectId = imported.json.result.project.id as string;
    const project = await t.call('GET', `/api/v1/projects/${projectId}`);
    const chapterId = project.json.result.chapters[0].id as string;
    const page = () => t.call('GET', `/api/v1/projects/${projectId}/chapters/${chapterId}/segments`);
    const segmentId = (await page()).json.result.items[0].id as string;
    const failure = new AppError('VOICE_PACK_NOT_FOUND', 'The voice pack "vi-pack" is not installed.', {
      id: 'vi-pack',
      path: join(t.dir, 'voices', 'vi-pack'),
    });
    await t.core.store.projectRenders.setSegmentAudio(segmentId, {
      state: 'failed',
      error: failure.message,
      error_code: failure.code,
      error_details: storedErrorDetails(failure),
    });
    const failed = await page();
    expectNoPath(failed.text);
    const segment = failed.json.result.items[0];
    expect(segment).toMatchObject({
      state: 'failed',
      error_code: 'VOICE_PACK_NOT_FOUND',
      error_details: { id: 'vi-pack' },
    });
    const sentence = describeFailure(vietnamese, segment.error_code, segment.error, segment.error_details);
    expect(sentence).toBe('Không có gói giọng đọc “vi-pack”.');
    expect(englishOutsideQuotes(sentence)).toEqual([]);
    await t.core.store.projectRenders.setSegmentAudio(segmentId, { state: 'queued', error: null });
    const cleared = (await page()).json.result.items[0];
    expect(cleared.error).toBeNull();
    expect(cleared).not.toHaveProperty('error_code');
  });
});

describe('a failed project export, worded in Vietnamese', () => {
  /** Imports a manuscript as a project and starts its MP3 export; the project's and export's ids. */
  const importAndExport = async (fileName: string, text: string) => {
    const imported = await upload(`/api/v1/projects/import?file_name=${fileName}`, text);
    expect(imported.status, imported.text).toBe(201);
    const projectId = imported.json.result.project.id as string;
    const started = await t.call('POST', `/api/v1/projects/${projectId}/exports`, {
      body: { format: 'mp3' },
    });
    expect(started.status, started.text).toBeLessThan(300);
    return { projectId, exportId: started.json.result.id as string };
  };

  it('keeps the failed render’s particulars: the sentence names how many segments failed', async () => {
    const restore = failRendersWith(t.core);
    try {
      const { projectId, exportId } = await importAndExport(
        'tat-den-loi.txt',
        `Chương một\n\nChị Dậu bế con ra đầu làng.\n\n${FAILING_TEXT}\n`,
      );
      const failed = await eventually(async () => {
        const res = await t.call('GET', `/api/v1/projects/${projectId}/exports/${exportId}`);
        return res.json.result.status === 'failed' ? res : undefined;
      });
      expectNoPath(failed.text);
      const record = failed.json.result;
      expect(record).toMatchObject({ error_code: 'ENGINE_FAILED', error_details: { segments_failed: 1 } });
      const sentence = describeFailure(
        vietnamese,
        record.error_code,
        record.error_message,
        record.error_details,
      );
      expect(sentence).toBe('1 đoạn không tạo được âm thanh: mỗi đoạn lỗi có ghi lý do.');
      expect(englishOutsideQuotes(sentence)).toEqual([]);
      expect(describeFailure(english, record.error_code, record.error_message, record.error_details)).toBe(
        record.error_message,
      );
    } finally {
      restore();
    }
  });

  it('an export whose process died at each of its runs reads INTERRUPTED: worded in Vietnamese too', async () => {
    const { projectId, exportId } = await importAndExport('so-do.txt', 'Chương một\n\nXuân Tóc Đỏ.\n');
    const read = (id: string) => t.call('GET', `/api/v1/projects/${projectId}/exports/${id}`);
    // Ended (failed on the fake engine, which makes no books): a row to copy, the queue idle.
    const ended = ['done', 'failed'];
    await eventually(async () =>
      ended.includes((await read(exportId)).json.result.status as string) ? true : undefined,
    );
    // As the queue holds an export started MAX_RUN_ATTEMPTS times by processes that died running it.
    const { store } = t.core;
    const done = (await store.exports.get(exportId, 'project'))!;
    const id = 'd'.repeat(32);
    await store.transaction(async (tx) => {
      await tx.exports.insert({ ...done, id, cover_base64: null, download_token: 'died-each-time' });
      for (let i = 0; i < MAX_RUN_ATTEMPTS; i++) {
        await tx.exports.claim(id, done.created_at, { owner: 'a-dead-process', until: 0 });
        await tx.exports.requeueProcessing('project');
      }
    });
    const record = await eventually(async () => {
      const r = (await read(id)).json.result;
      return r.status === 'failed' ? r : undefined;
    });
    expect(record).toMatchObject({ status: 'failed', error_code: 'INTERRUPTED' });
    const sentence = describeFailure(
      vietnamese,
      record.error_code,
      record.error_message,
      record.error_details,
    );
    expect(sentence).toBe(vi['errors.INTERRUPTED']);
    expect(englishOutsideQuotes(sentence)).toEqual([]);
    expect(describeFailure(english, record.error_code, record.error_message)).toBe(record.error_message);
  });
});
