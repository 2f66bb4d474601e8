import { describe, expect, it } from 'vitest';
import { asciiFileName, contentDisposition, downloadName, slugOf } from '../../electron/shared/download-name';

describe('download names', () => {
  it('the first words of the text, the voice, the format', () => {
    expect(
      downloadName({
        text: 'The lighthouse keeper climbed the stairs at dusk. Far below…',
        voice: 'en_female_emily_us',
        extension: 'mp3',
      }),
    ).toBe('the-lighthouse-keeper-climbed_en_female_emily_us.mp3');
    expect(downloadName({ text: 'Hello, world!', voice: 'en_male_onyx_default', extension: 'SRT' })).toBe(
      'hello-world_en_male_onyx_default.srt',
    );
  });

  it('Vietnamese letters are kept (NFC, lower case); the ASCII form drops their marks', () => {
    // Typed decomposed (e + combining marks), as some keyboards do: the name is NFC.
    const name = downloadName({
      text: 'Người gác đèn leo lên cầu thang'.normalize('NFD'),
      voice: 'vi_female_kieunhi_mn',
      extension: 'wav',
    });
    expect(name).toBe('người-gác-đèn-leo_vi_female_kieunhi_mn.wav');
    expect(name).toBe(name.normalize('NFC'));
    expect(asciiFileName(name)).toBe('nguoi-gac-den-leo_vi_female_kieunhi_mn.wav');
    expect(asciiFileName('ĐƯỜNG-ở-đâu.mp3')).toBe('DUONG-o-dau.mp3');
  });

  it('nothing unsafe for a file system: separators, reserved characters, dots, control characters', () => {
    const name = downloadName({
      text: '../../etc/passwd <con> "a:b" | c? *d* \u0000\u0007 .hidden',
      voice: 'en/../x',
      extension: '.m p3',
    });
    expect(name).toBe('etc-passwd-con-a_enx.mp3');
    // eslint-disable-next-line no-control-regex -- control characters are what must not be there
    expect(name).not.toMatch(/[/\\:*?"<>|\u0000-\u001f]/);
    expect(name.startsWith('.')).toBe(false);
    expect(downloadName({ title: 'Book', extension: 'loudness.json' })).toBe('book.loudness.json');
  });

  it('apostrophes join a word; long words and long texts are cut', () => {
    expect(slugOf("The keeper's lamp didn't fail")).toBe('the-keepers-lamp-didnt');
    expect(slugOf('Supercalifragilisticexpialidocious-and-then-some-more-words-after-it', 4, 20)).toBe(
      'supercalifragilistic',
    );
    expect(slugOf('alpha beta gamma delta epsilon', 5, 16)).toBe('alpha-beta-gamma');
    const long = downloadName({
      title: 'word '.repeat(100),
      chapter: 'other '.repeat(100),
      voice: 'v',
      extension: 'mp3',
    });
    expect([...long.replace(/\.mp3$/, '')].length).toBeLessThanOrEqual(120);
  });

  it('SSML: the spoken words, not the markup; broken SSML: its tags dropped', () => {
    expect(
      downloadName({
        text: '<speak><p>The keeper <break time="300ms"/> turned <voice name="en_female_nova_default">slowly</voice>.</p></speak>',
        voice: 'en_female_emily_us',
        extension: 'mp3',
      }),
    ).toBe('the-keeper-turned-slowly_en_female_emily_us.mp3');
    expect(downloadName({ text: '<speak><p>Unclosed words here', voice: 'x', extension: 'mp3' })).toBe(
      'unclosed-words-here_x.mp3',
    );
  });

  it('no words: "narration"; a title and a chapter come before the voice', () => {
    expect(downloadName({ text: '…!? — 🙂', voice: 'en_female_emily_us', extension: 'mp3' })).toBe(
      'narration_en_female_emily_us.mp3',
    );
    expect(downloadName({ extension: 'mp3' })).toBe('narration.mp3');
    expect(
      downloadName({
        title: 'The Lighthouse Keeper',
        chapter: 'Chapter 3: The Storm',
        text: 'ignored when there is a title',
        voice: 'en_male_onyx_default',
        extension: 'mp3',
      }),
    ).toBe('the-lighthouse-keeper_chapter-3-the-storm_en_male_onyx_default.mp3');
    expect(downloadName({ title: 'Người gác đèn', extension: 'm4b' })).toBe('người-gác-đèn.m4b');
  });

  it('Content-Disposition: an ASCII filename and the UTF-8 filename*', () => {
    const header = contentDisposition('inline', 'người-gác_vi_female_kieunhi_mn.mp3');
    expect(header).toBe(
      `inline; filename="nguoi-gac_vi_female_kieunhi_mn.mp3"; filename*=UTF-8''${encodeURIComponent('người-gác_vi_female_kieunhi_mn.mp3')}`,
    );
    // Only ASCII in the header (Node refuses other bytes in a header value).
    expect(header).toMatch(/^[\x20-\x7e]+$/);
    expect(asciiFileName('こんにちは.mp3')).toBe('narration.mp3');
  });
});
