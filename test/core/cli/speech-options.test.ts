import { describe, expect, it } from 'vitest';
import { sayWillSpeak } from '../../../electron/core/cli/speech-options';

describe('sayWillSpeak', () => {
  it('is true for a say that writes a file, in every spelling of --out', () => {
    expect(sayWillSpeak(['--voice', 'en_female_emily_us', '--out', 'a.wav', 'Hi.'])).toBe(true);
    expect(sayWillSpeak(['--out=a.mp3', 'Xin chào.'])).toBe(true);
    expect(sayWillSpeak(['-o', 'a.wav', '--format', 'wav', 'Hi.'])).toBe(true);
  });

  it('is false when the command answers instead of speaking, or has nowhere to write', () => {
    expect(sayWillSpeak(['--out', 'a.wav', '--help'])).toBe(false);
    expect(sayWillSpeak(['-h', '--out', 'a.wav'])).toBe(false);
    expect(sayWillSpeak(['--list-voices', '--out', 'a.wav'])).toBe(false);
    expect(sayWillSpeak(['--voice', 'vi_female_lan_north', '--show-reading', '--out', 'a.wav', 'x'])).toBe(
      false,
    );
    expect(sayWillSpeak(['Hi.'])).toBe(false);
  });

  it('does not take an option value for a flag: text "--out" after --srt is the file name', () => {
    expect(sayWillSpeak(['--srt', '--out', 'Hi.'])).toBe(false);
    expect(sayWillSpeak(['--unknown', 'x', '--out', 'a.wav', 'Hi.'])).toBe(true);
  });
});
