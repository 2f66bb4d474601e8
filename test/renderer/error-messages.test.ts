/**
 * The API's errors in the interface's language (i18n/error-messages.ts): English shows the
 * server's own message; Vietnamese the code's sentence from vi.json, then the server's
 * particulars; the client's own sentences and unknown codes as described.
 */
import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { describeError } from '../../renderer/src/i18n/error-messages';
import en from '../../renderer/src/i18n/messages/en.json';
import vi from '../../renderer/src/i18n/messages/vi.json';
import { ApiError, errorMessage } from '../../renderer/src/lib/api-client';
import { setCurrentIntl } from '../../renderer/src/lib/intl-text';

const english = createIntl({ locale: 'en', messages: en });
const vietnamese = createIntl({ locale: 'vi', messages: vi });
const ssml = new ApiError('SSML_INVALID', 'SSML line 3, column 7: unclosed <prosody>', 400);

describe('API errors in the interface language', () => {
  it('English: the server’s message as it came', () => {
    expect(describeError(english, ssml)).toBe('SSML line 3, column 7: unclosed <prosody>');
  });

  it('Vietnamese: the sentence for the code, then the server’s particulars', () => {
    expect(describeError(vietnamese, ssml)).toBe(
      'Không đọc được SSML. (Chi tiết: SSML line 3, column 7: unclosed <prosody>)',
    );
    const credits = new ApiError('INSUFFICIENT_CREDITS', 'key has 2.5 credits, needs 40', 402);
    expect(describeError(vietnamese, credits)).toContain('Khoá API không còn đủ tín dụng.');
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
