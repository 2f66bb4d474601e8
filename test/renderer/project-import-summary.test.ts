/**
 * The import summary the project view shows after a manuscript import (issue 38): the language
 * chosen and where from, and a legacy encoding's conversion, in Vietnamese and English from the
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
): ImportSummary => ({
  projectId: 'p',
  fileName: 'so-do.epub',
  languageChoice: { language: 'vi', source: 'text', metadata: null, detected: 'vi', ...choice },
  legacyEncoding: legacy,
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
});
