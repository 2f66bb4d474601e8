/**
 * Errors in the user's language (issue 38): errors provoked for real over HTTP on 127.0.0.1 on
 * the full core (bad SSML, IPA a voice cannot say, manuscripts that cannot be read, an archive
 * that is no voice pack, a spent sign-in address) answer `error_code`, the English
 * `error_message` and `error_details`; the studio's sentence for each, in Vietnamese
 * (describeError with vi.json), holds no English and no path, and the API's own answer names
 * no path of this machine (nor the temporary file an upload was written to).
 */

import { homedir } from 'node:os';
import { createIntl } from 'react-intl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeError } from '../../../renderer/src/i18n/error-messages';
import en from '../../../renderer/src/i18n/messages/en.json';
import vi from '../../../renderer/src/i18n/messages/vi.json';
import { englishOutsideQuotes } from '../../fixtures/english-words';
import { startSignedInCore, type SignedInTestCore } from './helpers';
import type { HttpResult } from './http';

const vietnamese = createIntl({ locale: 'vi', messages: vi });
const english = createIntl({ locale: 'en', messages: en });

let t: SignedInTestCore;
let signedIn: Record<string, string>;

beforeAll(async () => {
  t = await startSignedInCore();
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
