/**
 * The API's errors in the interface's language (i18n/error-messages.ts): English shows the
 * server's own message; Vietnamese the code's sentence from vi.json filled from the error's
 * details, never the server's English; every code and reason has a sentence in both catalogues;
 * the client's own sentences and unknown codes as described.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import {
  ERROR_HEADLINES,
  SSML_REASONS,
  DownloadError,
  describeBrowserError,
  describeError,
  describeFailure,
} from '../../renderer/src/i18n/error-messages';
import { HTTP_STATUS } from '../../electron/core/server/errors';
import en from '../../renderer/src/i18n/messages/en.json';
import vi from '../../renderer/src/i18n/messages/vi.json';
import { ApiError, errorMessage } from '../../renderer/src/lib/api-client';
import { setCurrentIntl } from '../../renderer/src/lib/intl-text';
import { englishOutsideQuotes } from '../fixtures/english-words';

const english = createIntl({ locale: 'en', messages: en });
const vietnamese = createIntl({ locale: 'vi', messages: vi });
const ssml = new ApiError('SSML_INVALID', 'SSML: <prosody> is not closed (line 3, column 7).', 400, {
  field: 'input_text',
  line: 3,
  column: 7,
  offset: 40,
  reason: 'not_closed',
  tag: 'prosody',
});

describe('API errors in the interface language', () => {
  it('English: the server’s message as it came', () => {
    expect(describeError(english, ssml)).toBe('SSML: <prosody> is not closed (line 3, column 7).');
  });

  it('Vietnamese: the sentence for the code filled from its details, without the server’s English', () => {
    expect(describeError(vietnamese, ssml)).toBe(
      'Không đọc được SSML. Ở dòng 3, cột 7: Phần tử <prosody> chưa được đóng.',
    );
    const credits = new ApiError('INSUFFICIENT_CREDITS', 'key has 2.5 credits, needs 40', 402);
    expect(describeError(vietnamese, credits)).toBe('Khoá API không còn đủ tín dụng.');
    const field = new ApiError('INVALID_FIELD', 'speed_rate must be between 0.5 and 2.', 400, {
      field: 'speed_rate',
    });
    expect(describeError(vietnamese, field)).toBe('Có một giá trị không hợp lệ. (trường “speed_rate”)');
    const ipa = new ApiError(
      'INVALID_FIELD',
      'The IPA symbol "˥" (U+02E5, character 8) is not supported.',
      400,
      {
        field: 'replacement',
        reason: 'ipa_symbol',
        symbol: '˥',
        position: 8,
      },
    );
    expect(describeError(vietnamese, ipa)).toBe(
      'Có một giá trị không hợp lệ. Ký hiệu IPA “˥” (ký tự thứ 8) không được hỗ trợ.',
    );
    const tooLarge = new ApiError('MANUSCRIPT_TOO_LARGE', '"so-do.epub" is larger than 64 MiB.', 413, {
      file: 'so-do.epub',
      limit_bytes: 64 * 1024 ** 2,
    });
    expect(describeError(vietnamese, tooLarge)).toBe('Tệp “so-do.epub” quá lớn: giới hạn là 64 MiB.');
    const offline = new ApiError('VOICE_DOWNLOAD_FAILED', 'This computer cannot reach example.org…', 502, {
      file: 'kokoro.tar.gz',
      reason: 'offline',
      host: 'huggingface.co',
    });
    expect(describeError(vietnamese, offline)).toMatch(
      /^Máy tính này không kết nối được tới huggingface\.co/,
    );
  });

  it('a failed record (request, render, export) by its stored code: Vietnamese without the English', () => {
    expect(describeFailure(vietnamese, 'OUTPUT_FAILED', 'Could not write …/seg-1.wav: ENOSPC')).toBe(
      'Không ghi được âm thanh.',
    );
    expect(describeFailure(english, 'OUTPUT_FAILED', 'Could not write …/seg-1.wav: ENOSPC')).toBe(
      'Could not write …/seg-1.wav: ENOSPC',
    );
    expect(describeFailure(vietnamese, null, null)).toBe('');
  });

  it('every error code has a headline, and every SSML and IPA reason a sentence, in en and vi', () => {
    const codes = Object.keys(HTTP_STATUS);
    expect(Object.keys(ERROR_HEADLINES)).toEqual(expect.arrayContaining(codes));
    const ids = [...Object.values(ERROR_HEADLINES), ...Object.values(SSML_REASONS)].map(
      (m) => m.id as string,
    );
    for (const id of ids) {
      expect(en, id).toHaveProperty([id]);
      expect(vi, id).toHaveProperty([id]);
      expect((vi as Record<string, string>)[id], id).not.toBe((en as Record<string, string>)[id]);
    }
    // Every message of the errors' catalogue (headlines, reasons, detailed sentences) is in vi.
    const errorIds = Object.keys(en).filter((id) => id.startsWith('errors.'));
    expect(errorIds.length).toBeGreaterThan(codes.length);
    for (const id of errorIds) expect(vi, id).toHaveProperty([id]);
  });

  it('Vietnamese: the client’s own sentences alone; an unknown code keeps the server’s words', () => {
    const network = new ApiError('NETWORK', 'The studio server is not answering. Is it still running?', 0);
    expect(describeError(vietnamese, network)).toBe('Máy chủ studio không trả lời. Nó còn đang chạy không?');
    expect(describeError(vietnamese, { code: 'FROM_A_NEWER_SERVER', message: 'new words' })).toBe(
      'new words',
    );
  });

  it('errorMessage speaks the language the provider sets, and English (the server’s words) without one', () => {
    setCurrentIntl(vietnamese);
    try {
      expect(errorMessage(ssml)).toMatch(/^Không đọc được SSML/);
      expect(errorMessage(new Error('plain'))).toBe('plain');
    } finally {
      setCurrentIntl(undefined);
    }
    expect(errorMessage(ssml)).toBe(ssml.message);
  });
});

describe('the particular each code names, worded in Vietnamese', () => {
  const cases: [code: string, details: Record<string, string | number>, particular: string][] = [
    ['MISSING_FIELD', { field: 'input_text' }, '“input_text”'],
    ['UNKNOWN_VOICE', { field: 'voice_code', voice_code: 'vi_khong_co' }, '“vi_khong_co”'],
    ['TEXT_TOO_LONG', { field: 'text', characters: 5001, limit: 5000 }, '5.001'],
    ['TEXT_TOO_LONG', { field: 'text', limit: 5000 }, '5.000'],
    ['BODY_TOO_LARGE', { limit_bytes: 1024 ** 3 }, '1.024 MiB'],
    ['PROJECT_NOT_FOUND', { part: 'project', id: 'p1' }, 'dự án “p1”'],
    ['PROJECT_NOT_FOUND', { part: 'chapter', id: 'c1' }, 'chương “c1”'],
    ['PROJECT_NOT_FOUND', { part: 'segment', id: 's1' }, 'đoạn “s1”'],
    ['PROJECT_NOT_FOUND', { part: 'character', id: 'ch1' }, 'nhân vật “ch1”'],
    ['PROJECT_NOT_FOUND', { part: 'render', id: 'r1' }, 'lượt tạo âm thanh “r1”'],
    ['PROJECT_NOT_FOUND', { part: 'cover', id: 'p1' }, 'ảnh bìa'],
    ['REQUEST_NOT_FOUND', { id: 'q1' }, 'yêu cầu “q1”'],
    ['EXPORT_NOT_FOUND', { id: 'e1' }, 'bản xuất “e1”'],
    ['KEY_NOT_FOUND', { id: 'k1' }, 'khoá API “k1”'],
    ['CUSTOM_VOICE_NOT_FOUND', { id: 'giong-1' }, 'giọng đọc tự tạo “giong-1”'],
    ['CUSTOM_VOICE_CONFLICT', { field: 'code', id: 'giong-1' }, 'Mã giọng đọc “giong-1” đã có người dùng'],
    ['VOICE_PACK_NOT_FOUND', { id: 'vi-pack' }, 'gói giọng đọc “vi-pack”'],
  ];
  it.each(cases)('%s %j names its particular, in Vietnamese only', (code, details, particular) => {
    const sentence = describeError(vietnamese, { code, message: 'The English sentence.', details });
    expect(sentence).toContain(particular);
    expect(englishOutsideQuotes(sentence), sentence).toEqual([]);
    expect(sentence).not.toBe(vi[`errors.${code}` as keyof typeof vi]);
    // The English studio keeps the server's sentence.
    expect(describeError(english, { code, message: 'The English sentence.', details })).toBe(
      'The English sentence.',
    );
  });

  it('without its particular, a code keeps its headline', () => {
    expect(
      describeError(vietnamese, { code: 'PROJECT_NOT_FOUND', message: 'x', details: { part: 'x' } }),
    ).toBe(vi['errors.PROJECT_NOT_FOUND']);
    expect(describeError(vietnamese, { code: 'KEY_NOT_FOUND', message: 'x' })).toBe(
      vi['errors.KEY_NOT_FOUND'],
    );
  });
});

describe('failed records worded from their code and details', () => {
  it('a failed segment names the voice; a render with failed segments counts them', () => {
    const segment = describeFailure(vietnamese, 'UNKNOWN_VOICE', 'Unknown voice_code "vi_khong_co".', {
      field: 'voice_code',
      voice_code: 'vi_khong_co',
    });
    expect(segment).toBe('Không có giọng đọc “vi_khong_co”.');
    const render = describeFailure(vietnamese, 'ENGINE_FAILED', '3 segment(s) failed; the last: x', {
      segments_failed: 3,
    });
    expect(render).toBe('3 đoạn không tạo được âm thanh: mỗi đoạn lỗi có ghi lý do.');
    expect(englishOutsideQuotes(render)).toEqual([]);
    expect(
      describeFailure(english, 'ENGINE_FAILED', '3 segment(s) failed; the last: x', { segments_failed: 3 }),
    ).toBe('3 segment(s) failed; the last: x');
    // A record kept before codes were stored shows its message.
    expect(describeFailure(vietnamese, undefined, 'engine failed')).toBe('engine failed');
  });
});

describe('errors the browser raises, worded in the interface language', () => {
  /** A real fetch on 127.0.0.1 to a port nothing listens on, and its rejection. */
  async function refused(): Promise<unknown> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    return fetch(`http://127.0.0.1:${port}/api/v1/health`).catch((error: unknown) => error);
  }
  /** A real fetch on 127.0.0.1 to a server that never answers, given up after 50 ms. */
  async function timedOut(): Promise<unknown> {
    const server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      return await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(50) }).catch(
        (error: unknown) => error,
      );
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it('no answer, a timeout, audio it cannot decode, a file it cannot read, a failed download', async () => {
    const cases: [unknown, string][] = [
      [await refused(), vi['errors.NETWORK']],
      [new TypeError('Failed to fetch'), vi['errors.NETWORK']],
      [await timedOut(), vi['errors.browser.timeout']],
      [new DOMException('Unable to decode audio data', 'EncodingError'), vi['errors.browser.audio']],
      [
        new DOMException('The requested file could not be read', 'NotReadableError'),
        vi['errors.browser.file'],
      ],
      [new DOMException('play() failed', 'NotAllowedError'), vi['errors.browser.notAllowed']],
      [new DownloadError(503), 'Tải xuống thất bại (HTTP 503).'],
    ];
    for (const [error, sentence] of cases) {
      expect(describeBrowserError(vietnamese, error)).toBe(sentence);
      expect(englishOutsideQuotes(describeBrowserError(vietnamese, error))).toEqual([]);
      expect(describeBrowserError(english, error)).not.toMatch(/^(Failed to fetch|fetch failed)$/);
    }
    setCurrentIntl(vietnamese);
    expect(errorMessage(new TypeError('Failed to fetch'))).toBe(vi['errors.NETWORK']);
    setCurrentIntl(english);
    expect(errorMessage(new TypeError('Failed to fetch'))).toBe(en['errors.NETWORK']);
    // The studio's own errors, already worded, keep their sentence.
    expect(describeBrowserError(vietnamese, new Error('Câu của studio.'))).toBe('Câu của studio.');
  });
});
