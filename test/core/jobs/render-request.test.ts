/** A request row as the runner hands it to the engine. */

import { describe, expect, it } from 'vitest';
import type { LexiconRule } from '../../../electron/core/engine/engine';
import {
  renderRequestOf,
  type RenderParts,
  type RequestToRender,
} from '../../../electron/core/jobs/render-request';
import { createDirectoryFiles } from '../../../electron/core/jobs/result-files';

const files = createDirectoryFiles('/data/audio');

const row = (overrides: Partial<RequestToRender> = {}): RequestToRender => ({
  id: 'r1',
  input_text: 'Hello there.',
  model_id: 'std-v1.6',
  audio_type: 'mp3',
  bitrate: 128,
  speed_rate: 1.1,
  pitch_rate: 0.9,
  volume: 1.2,
  generate_srt: 0,
  source: 'api',
  ...overrides,
});

const signal = new AbortController().signal;
const onAudio = () => undefined;
const onProgress = () => undefined;
const parts = (overrides: Partial<RenderParts> = {}): RenderParts => ({
  voiceCode: 'en-us',
  neuralVoice: undefined,
  lexicon: undefined,
  ssml: {},
  prosody: undefined,
  timings: false,
  signal,
  onAudio,
  onProgress,
  ...overrides,
});

describe('renderRequestOf', () => {
  it('renders the row as asked, with the voice code that speaks it', () => {
    const request = renderRequestOf(row(), parts({ voiceCode: 'en-gb' }), files);
    expect(request).toEqual({
      neuralVoice: undefined,
      lexicon: undefined,
      text: 'Hello there.',
      voice_code: 'en-gb',
      model_id: 'std-v1.6',
      audio_type: 'mp3',
      bitrate: 128,
      speed_rate: 1.1,
      pitch_rate: 0.9,
      volume: 1.2,
      audioPath: files.audioPath({ id: 'r1', audio_type: 'mp3' }),
      signal,
      onProgress,
    });
    expect(request.srtPath).toBeUndefined();
    expect(request.timingsPath).toBeUndefined();
    expect(request.onAudio).toBeUndefined();
  });

  it("speaks a custom voice's prosody instead of the row's", () => {
    const request = renderRequestOf(
      row(),
      parts({ prosody: { speed_rate: 0.8, pitch_rate: 1, volume: 0.5 } }),
      files,
    );
    expect(request).toMatchObject({ speed_rate: 0.8, pitch_rate: 1, volume: 0.5 });
  });

  it('asks for subtitles and word timings when wanted', () => {
    const request = renderRequestOf(row({ generate_srt: 1 }), parts({ timings: true }), files);
    expect(request.srtPath).toBe(files.srtPath({ id: 'r1' }));
    expect(request.timingsPath).toBe(files.timingsPath({ id: 'r1' }));
  });

  it('streams the audio of OpenAI requests only (their callers wait on the connection)', () => {
    expect(renderRequestOf(row({ source: 'openai' }), parts(), files).onAudio).toBe(onAudio);
    expect(renderRequestOf(row({ source: 'api' }), parts(), files).onAudio).toBeUndefined();
  });

  it('passes the neural voice, lexicon and SSML voices on', () => {
    const lexicon: LexiconRule[] = [
      { match: 'GPL', kind: 'respell', replacement: 'G P L', case_sensitive: true, whole_word: true },
    ];
    const ssml = { voices: { 'fr-fr': undefined }, lexicons: {} };
    const request = renderRequestOf(row(), parts({ lexicon, ssml }), files);
    expect(request.lexicon).toBe(lexicon);
    expect(request.voices).toEqual({ 'fr-fr': undefined });
    expect(request.lexicons).toEqual({});
  });
});
