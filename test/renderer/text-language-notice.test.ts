import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { IntlProvider } from 'react-intl';
import { describe, expect, it } from 'vitest';
import type { CustomVoice } from '../../electron/shared/custom-voices';
import type { ProjectDetail } from '../../electron/shared/projects';
import { findVoice } from '../../electron/shared/voices';
import { languageMismatch, TextLanguageNotice } from '../../renderer/src/features/compose/TextLanguageNotice';
import { castInOtherLanguages } from '../../renderer/src/features/projects/ProjectRecastOffer';
import en from '../../renderer/src/i18n/messages/en.json';
import vi from '../../renderer/src/i18n/messages/vi.json';
import { FIRST_VOICES } from '../../renderer/src/stores/options-slice';
import { ENGLISH_LINES, VIETNAMESE_LINES } from '../fixtures/language-samples';

describe('languageMismatch (the Studio notice under the text)', () => {
  it("offers a voice of the text's language when the voice speaks another, and nothing otherwise", () => {
    expect(languageMismatch(ENGLISH_LINES[0]!, 'vi_female_hacuc_mb', [])).toMatchObject({
      language: 'en',
      offer: { voice_code: FIRST_VOICES.en },
    });
    expect(languageMismatch(VIETNAMESE_LINES[0]!, 'en_female_emily_us', [])).toMatchObject({
      language: 'vi',
      offer: { voice_code: FIRST_VOICES.vi },
    });
    expect(languageMismatch(VIETNAMESE_LINES[0]!, 'vi_female_hacuc_mb', [])).toBeNull();
    expect(languageMismatch(ENGLISH_LINES[0]!, 'en_female_elara_br', [])).toBeNull();
    // Unknown text (too short, numbers) and unknown voices say nothing.
    expect(languageMismatch('Hello', 'vi_female_hacuc_mb', [])).toBeNull();
    expect(languageMismatch('12 345', 'vi_female_hacuc_mb', [])).toBeNull();
    expect(languageMismatch(ENGLISH_LINES[0]!, 'nobody', [])).toBeNull();
  });

  it("judges a custom voice by its catalogue voice's language", () => {
    const custom = { code: 'co_lan', name: 'Cô Lan', voice_code: 'vi_female_hacuc_mb' } as CustomVoice;
    expect(languageMismatch(ENGLISH_LINES[0]!, 'co_lan', [custom])?.language).toBe('en');
    expect(languageMismatch(VIETNAMESE_LINES[0]!, 'co_lan', [custom])).toBeNull();
  });
});

describe('castInOtherLanguages (the project view’s re-cast offer)', () => {
  const detail = (language: string, voices: string[]) =>
    ({
      project: { language },
      characters: voices.map((voice_code, i) => ({ name: `c${i}`, voice_code, narrator: i === 0 })),
    }) as unknown as ProjectDetail;

  it('names the cast whose catalogue voices speak another language; custom voices and voiceless languages do not count', () => {
    expect(
      castInOtherLanguages(detail('vi', ['en_female_emily_us', 'vi_female_hacuc_mb', 'co_lan'])),
    ).toEqual(['c0']);
    expect(castInOtherLanguages(detail('en', ['en_female_emily_us', 'en_male_onyx_default']))).toEqual([]);
    expect(castInOtherLanguages(detail('de', ['en_female_emily_us']))).toEqual([]);
  });
});

describe('TextLanguageNotice (the one component under the Studio text, the workbench sentence and a segment being edited)', () => {
  const render = (locale: 'vi' | 'en', text: string, voiceCode: string, customVoices: CustomVoice[] = []) =>
    renderToStaticMarkup(
      createElement(
        IntlProvider,
        { locale, defaultLocale: 'en', messages: locale === 'vi' ? vi : en },
        createElement(TextLanguageNotice, { text, voiceCode, customVoices, onSwitch: () => undefined }),
      ),
    );

  it('says so in the interface language and offers a voice of the text’s language, naming a custom voice by its name', () => {
    const custom = { code: 'co_lan', name: 'Cô Lan', voice_code: 'vi_female_hacuc_mb' } as CustomVoice;
    const vietnamese = render('vi', ENGLISH_LINES[0]!, 'co_lan', [custom]);
    expect(vietnamese).toContain('Văn bản này có vẻ là tiếng Anh, nhưng Cô Lan đọc ngôn ngữ khác.');
    expect(vietnamese).toContain('>Dùng Emily</button>');
    const english = render('en', VIETNAMESE_LINES[0]!, 'en_female_emily_us');
    expect(english).toContain('This text looks Vietnamese, but Emily speaks another language.');
    expect(english).toContain(`>Use ${findVoice(FIRST_VOICES.vi)!.name}</button>`);
    expect(render('vi', VIETNAMESE_LINES[0]!, 'vi_female_hacuc_mb')).toBe('');
  });
});
