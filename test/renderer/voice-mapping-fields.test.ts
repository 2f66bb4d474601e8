/**
 * The Settings alias table's row problems in the interface's language (issue 38): a row that
 * aliases one of our own codes, or names a voice we do not have, is worded from the catalogue,
 * never the shared check's English.
 */
import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { aliasesOf } from '../../renderer/src/features/settings/VoiceMappingFields';
import en from '../../renderer/src/i18n/messages/en.json';
import vi from '../../renderer/src/i18n/messages/vi.json';
import { englishOutsideQuotes } from '../fixtures/english-words';

const vietnamese = createIntl({ locale: 'vi', messages: vi });
const english = createIntl({ locale: 'en', messages: en });

describe('alias rows worded in the interface language', () => {
  it('an alias of our own code, and a voice we do not have', () => {
    const own = aliasesOf([{ code: 'en_female_emily_us', voice: 'vi_female_thuytrang_mb' }], vietnamese);
    expect(own).toEqual({
      problem: 'Dòng 1: “en_female_emily_us” đã là một mã giọng đọc của chúng tôi: không cần bí danh.',
    });
    const unknown = aliasesOf(
      [
        { code: 'hn_female_a', voice: 'vi_female_thuytrang_mb' },
        { code: 'hn_female_b', voice: 'khong_co' },
      ],
      vietnamese,
    );
    expect(unknown).toEqual({
      problem: 'Dòng 2: “khong_co” (giọng đọc cho “hn_female_b”) không phải là giọng đọc của chúng tôi.',
    });
    expect(englishOutsideQuotes((unknown as { problem: string }).problem)).toEqual([]);
    expect(aliasesOf([{ code: 'hn_female_b', voice: 'khong_co' }], english)).toEqual({
      problem: 'Row 1: “khong_co” (the voice for “hn_female_b”) is not one of our voices.',
    });
    expect(aliasesOf([{ code: 'hn_female_a', voice: 'vi_female_thuytrang_mb' }], vietnamese)).toEqual({
      aliases: { hn_female_a: 'vi_female_thuytrang_mb' },
    });
  });
});
