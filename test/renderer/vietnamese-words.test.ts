/**
 * The rule the browser walk in Vietnamese (test/e2e/every-view-vietnamese.ts) flags English with,
 * tested here on its own: English interface words are found, Vietnamese (with or without marks),
 * names, quotes and data are not; a control whose name lacks its visible label is found. The same
 * rule run over the Vietnamese catalogue (what the studio says outside code) and over every voice
 * pack's licence as the library shows it in Vietnamese.
 */
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { CallbackRefusedError } from '../../electron/core/jobs/callback-targets';
import { describeError } from '../../electron/core/jobs/delivery';
import { CATALOGUE } from '../../electron/core/voices/catalogue';
import { deliveryResultText } from '../../renderer/src/features/callbacks/delivery-result';
import { licenceText } from '../../renderer/src/features/voice-library/licence-text';
import en from '../../renderer/src/i18n/messages/en.json';
import vi from '../../renderer/src/i18n/messages/vi.json';
import { englishProblems, englishWords, labelNotInName } from '../fixtures/english-words';

describe('English words in a Vietnamese view', () => {
  it('finds the English of an interface: names of languages, raw values, labels', () => {
    expect(englishWords('Người đọc: Narrator')).toEqual(['Narrator']);
    expect(englishWords('Vietnamese, English, Chinese')).toEqual(['Vietnamese', 'English', 'Chinese']);
    expect(englishWords('Lần chạy này: refuse, 0 bí danh.')).toEqual(['refuse']);
    expect(englishWords('Giấy phép: not stated in the model card')).toEqual(['not', 'the', 'model']);
    expect(englishProblems('projects', [{ source: 'text', text: 'Save' }])).toEqual([
      'projects text in English (Save): “Save”',
    ]);
  });

  it('leaves Vietnamese (also words without marks), names, quotes, paths, identifiers and data', () => {
    for (const text of [
      'Người dẫn chuyện · Tiếng Việt · Tiếng Anh',
      'in tài liệu, con đường, an toàn, do đó, to lớn, tin nhắn, ban đầu', // Vietnamese without marks
      'Giấy phép: CC-BY-4.0 (kho ngữ liệu VCTK) · Apache License 2.0',
      'thẻ mô hình không nêu ("See URL" và dẫn tới github.com/MycroftAI/mimic3-voices)',
      'Từ chối (UNKNOWN_VOICE, như dịch vụ gốc) · vi_female_nova_default',
      'Mở Narration Studio',
    ])
      expect({ text, words: englishWords(text) }).toEqual({ text, words: [] });
    const book = ['The Lighthouse', 'The lighthouse keeper climbed the stairs at dusk.'];
    expect(englishWords('Xoá The Lighthouse', book)).toEqual([]);
    expect(englishWords('The lighthouse keeper climbed…', book)).toEqual([]);
    expect(englishWords('The Lighthouse: Remove', book)).toEqual(['Remove']);
  });

  it('finds a control whose accessible name does not contain its visible label (WCAG 2.5.3)', () => {
    const controls = [
      { what: 'export', label: 'Gỡ bỏ', name: 'Gỡ lần xuất The Lighthouse' },
      { what: 'chip', label: '¶3 · Hội thoại', name: 'Đoạn 3: giọng hội thoại' },
      { what: 'import', label: 'Nhập từ máy…', name: 'Nhập từ máy: gói giọng đọc (.zip hoặc .tar.gz)' },
      { what: 'icon', label: '▶', name: 'Phát' },
      { what: 'partial word', label: 'Gỡ', name: 'Gỡ bỏ' },
      { what: 'inside a word', label: 'bỏ', name: 'Gỡ bỏi' },
    ];
    expect(labelNotInName('x', controls)).toEqual([
      'x export: the name “Gỡ lần xuất The Lighthouse” does not contain its label “Gỡ bỏ”',
      'x inside a word: the name “Gỡ bỏi” does not contain its label “bỏ”',
    ]);
  });

  it('the Vietnamese catalogue says no English word outside code, markup and placeholders', () => {
    const leftovers: string[] = [];
    const walk = (id: string, elements: MessageFormatElement[]) => {
      for (const e of elements) {
        if (e.type === TYPE.literal) {
          const words = englishWords(e.value);
          if (words.length > 0) leftovers.push(`${id}: ${words.join(', ')}`);
        } else if (e.type === TYPE.plural || e.type === TYPE.select) {
          for (const option of Object.values(e.options)) walk(id, option.value);
        } else if (e.type === TYPE.tag && !['code', 'kbd'].includes(e.value)) walk(id, e.children);
      }
    };
    for (const [id, message] of Object.entries(vi as Record<string, string>))
      walk(id, parse(message, { ignoreTag: false }));
    expect(leftovers).toEqual([]);
  });

  it('every voice pack’s licence in Vietnamese: names kept, explanations translated', () => {
    const vietnamese = createIntl({ locale: 'vi', messages: vi });
    const english = createIntl({ locale: 'en', messages: en });
    // Each distinct licence the catalogue states, with the codes the server sends beside it.
    const packs = [
      ...new Map(
        CATALOGUE.map((e) => [e.licence, { licence: e.licence, licence_terms: e.licence_terms ?? null }]),
      ).values(),
    ];
    expect(packs.length).toBeGreaterThan(20);
    for (const pack of packs) {
      const { licence } = pack;
      expect(pack.licence_terms).not.toBeNull();
      expect(licenceText(pack, english)).toBe(licence);
      const shown = licenceText(pack, vietnamese);
      expect({ licence, words: englishWords(shown) }).toEqual({ licence, words: [] });
    }
    const vivos = CATALOGUE.find((e) => e.id === 'vi_VN-vivos-x_low')!;
    expect(
      licenceText({ licence: vivos.licence, licence_terms: vivos.licence_terms ?? null }, vietnamese),
    ).toBe('CC-BY-NC-SA-4.0 (phi thương mại; kho ngữ liệu VIVOS)');
    // Worded from the code, whatever the English words: a note's code decides.
    expect(
      licenceText({ licence: 'anything at all', licence_terms: { note: 'public_domain' } }, vietnamese),
    ).toBe('phạm vi công cộng');
    // A licence without codes (an imported pack's) is shown as it is, even words the catalogue uses.
    expect(licenceText({ licence: 'Some licence of our own', licence_terms: null }, vietnamese)).toBe(
      'Some licence of our own',
    );
    expect(licenceText({ licence: 'public domain', licence_terms: null }, vietnamese)).toBe('public domain');
  });

  it('every failure the server records for a callback attempt, in Vietnamese in the Callbacks view', () => {
    const vietnamese = createIntl({ locale: 'vi', messages: vi });
    const english = createIntl({ locale: 'en', messages: en });
    const codes = [
      'ECONNREFUSED',
      'ECONNRESET',
      'EPIPE',
      'EHOSTUNREACH',
      'ENETUNREACH',
      'ENOTFOUND',
      'EAI_AGAIN',
      'ETIMEDOUT',
      'ECONNABORTED',
      'CERT_HAS_EXPIRED',
      'DEPTH_ZERO_SELF_SIGNED_CERT',
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      'ERR_TLS_CERT_ALTNAME_INVALID',
      'UND_ERR_CONNECT_TIMEOUT',
      'UND_ERR_HEADERS_TIMEOUT',
    ];
    const errors = [
      ...codes.map((code) => Object.assign(new Error(`connect ${code} 127.0.0.1:9`), { code })),
      new CallbackRefusedError('a private address'),
    ];
    for (const error of errors) {
      // What the server records (delivery.ts): a code and its English words, as the view shows them.
      const { code, result } = describeError(error, 10_000);
      const attempt = { result, result_code: code };
      const shown = deliveryResultText(attempt, vietnamese);
      expect({ result, words: englishWords(shown) }).toEqual({ result, words: [] });
      expect(shown).not.toBe(result);
      expect(deliveryResultText(attempt, english).replace('10,000', '10000')).toBe(result);
    }
    expect(deliveryResultText({ result: 'connection refused', result_code: 'refused' }, vietnamese)).toBe(
      'kết nối bị từ chối',
    );
    expect(deliveryResultText({ result: 'HTTP 404 Not Found', result_code: 'http' }, vietnamese)).toBe(
      'HTTP 404 Not Found',
    );
  });

  it('words a callback result from its code, not its English words; an attempt recorded before codes shows its text', () => {
    const vietnamese = createIntl({ locale: 'vi', messages: vi });
    const english = createIntl({ locale: 'en', messages: en });
    // The code decides, whatever the recorded words say.
    expect(deliveryResultText({ result: 'whatever words', result_code: 'reset' }, vietnamese)).toBe(
      'kết nối bị ngắt trước khi có câu trả lời đầy đủ',
    );
    expect(deliveryResultText({ result: 'whatever words', result_code: 'reset' }, english)).toBe(
      'connection reset before a complete answer',
    );
    expect(
      deliveryResultText(
        { result: 'timeout: no complete answer within 2000 ms', result_code: 'timeout_answer' },
        vietnamese,
      ),
    ).toBe('hết thời gian chờ: không có câu trả lời đầy đủ trong 2.000 ms');
    expect(
      deliveryResultText(
        { result: 'timeout: could not connect', result_code: 'timeout_connect' },
        vietnamese,
      ),
    ).toBe('hết thời gian chờ: không kết nối được');
    expect(deliveryResultText({ result: 'odd failure at …', result_code: 'other' }, vietnamese)).toBe(
      'kết nối thất bại: odd failure at …',
    );
    expect(deliveryResultText({ result: 'odd failure at …', result_code: 'other' }, english)).toBe(
      'connection failed: odd failure at …',
    );
    // Rows recorded before codes (null): the recorded text as it came, in both languages.
    expect(deliveryResultText({ result: 'connection refused', result_code: null }, vietnamese)).toBe(
      'connection refused',
    );
    expect(deliveryResultText({ result: 'connection refused', result_code: null }, english)).toBe(
      'connection refused',
    );
  });
});
