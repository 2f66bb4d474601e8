/**
 * The import summary the project view shows after a manuscript import (issue 38): the language
 * chosen and where from, a legacy encoding's conversion or a text file's encoding, in Vietnamese and English from the
 * real catalogues (language names from Intl).
 */

import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { importSummaryLines } from '../../renderer/src/features/projects/ProjectImportSummary';
import en from '../../renderer/src/i18n/messages/en.json';
import vi from '../../renderer/src/i18n/messages/vi.json';
import type { ImportSummary } from '../../renderer/src/stores/projects-slice';

const intlOf = (locale: 'vi-VN' | 'en', messages: Record<string, string>) =>
  createIntl({ locale, defaultLocale: 'en', messages });
const VI = intlOf('vi-VN', vi);
const EN = intlOf('en', en);

const summary = (
  choice: Partial<NonNullable<ImportSummary['languageChoice']>>,
  legacy: ImportSummary['legacyEncoding'] = null,
  text: ImportSummary['textEncoding'] = null,
): ImportSummary => ({
  projectId: 'p',
  fileName: 'so-do.epub',
  languageChoice: { language: 'vi', source: 'text', metadata: null, detected: 'vi', ...choice },
  legacyEncoding: legacy,
  textEncoding: text,
});

describe('importSummaryLines (the project view after an import)', () => {
  it('says the text overruled the metadata, naming both languages in the interface language', () => {
    const overruled = summary({ metadata: 'en' });
    expect(importSummaryLines(overruled, VI)).toEqual([
      'Ngôn ngữ: Tiếng Việt (theo nội dung; siêu dữ liệu ghi Tiếng Anh)',
    ]);
    expect(importSummaryLines(overruled, EN)).toEqual([
      'Language: Vietnamese (from the text; the metadata says English)',
    ]);
  });

  it('names each other source, and a conversion from a legacy Vietnamese encoding', () => {
    expect(importSummaryLines(summary({ metadata: 'vi' }), VI)).toEqual([
      'Ngôn ngữ: Tiếng Việt (theo nội dung)',
    ]);
    expect(
      importSummaryLines(
        summary({ language: 'fr', source: 'metadata', metadata: 'fr', detected: 'unknown' }),
        EN,
      ),
    ).toEqual(['Language: French (from the file’s metadata)']);
    expect(importSummaryLines(summary({ language: 'en', source: 'request' }), VI)).toEqual([
      'Ngôn ngữ: Tiếng Anh (theo lựa chọn khi nhập)',
    ]);
    expect(
      importSummaryLines(summary({ language: 'en', source: 'default', detected: 'unknown' }, 'tcvn3'), VI),
    ).toEqual(['Ngôn ngữ: Tiếng Anh (mặc định)', 'Chuyển từ bảng mã TCVN3 (ABC) sang Unicode']);
    expect(importSummaryLines({ ...summary({}), languageChoice: null, legacyEncoding: 'vni' }, EN)).toEqual([
      'Converted from the VNI encoding to Unicode',
    ]);
  });

  it('names the encoding a text file that is not UTF-8 was read in (not for UTF-8, nor after a conversion)', () => {
    const plain = { ...summary({}), languageChoice: null };
    expect(importSummaryLines({ ...plain, textEncoding: 'windows-1258' }, VI)).toEqual([
      'Đọc theo bảng mã Windows-1258 (tệp không phải UTF-8: hãy kiểm tra các chữ có dấu)',
    ]);
    expect(importSummaryLines({ ...plain, textEncoding: 'windows-1252' }, EN)).toEqual([
      'Read as Windows-1252 text (the file is not UTF-8: check its accented letters)',
    ]);
    expect(importSummaryLines({ ...plain, textEncoding: 'utf-8' }, EN)).toEqual([]);
    expect(importSummaryLines({ ...plain, textEncoding: 'tcvn3', legacyEncoding: 'tcvn3' }, EN)).toEqual([
      'Converted from the TCVN3 (ABC) encoding to Unicode',
    ]);
  });
});
