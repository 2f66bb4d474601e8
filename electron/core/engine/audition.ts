/** A voice's short preview: one sentence in its language (or the given text), as a WAV in memory. */

import type { LanguageCode } from '../../shared/voices';
import { createVolumeProcessor, trimSilence } from './audio/dsp';
import { encodeWav } from './audio/wav';
import type { AuditionOptions } from './engine';
import { chooseBackend, type RenderContext } from './render/render';
import { prepareChunk } from './render/speech-plan';
import { resolveVoice } from './render/voice';
import { cleanText } from '../../shared/text';

const AUDITION_TEXT: Record<LanguageCode, string> = {
  vi: 'Xin chào, đây là giọng đọc của tôi.',
  en: 'Hello, this is how I sound.',
  zh: '你好，这是我的声音。',
  ja: 'こんにちは、これが私の声です。',
  ko: '안녕하세요, 제 목소리입니다.',
  fr: 'Bonjour, voici ma voix.',
  es: 'Hola, así suena mi voz.',
};

/** Synthesises the audition on `pool` with the default model; no files, no charge. */
export async function auditionWav(context: RenderContext, options: AuditionOptions): Promise<Uint8Array> {
  const resolved = resolveVoice({ ...options, model_id: 'std-v1.6' });
  const backend = await chooseBackend(context, options, resolved);
  const text = cleanText(options.text ?? AUDITION_TEXT[resolved.voice.language]);
  const prepared = await prepareChunk(text, resolved.voice, resolved.profile);
  const output = await backend.synthesize(prepared.engineText, 'audition');
  const edges = trimSilence(output.pcm);
  const pcm = output.pcm.slice(edges.start, output.pcm.length - edges.end);
  const processor = createVolumeProcessor({ gain: options.volume / 100, sampleRate: output.sampleRate });
  const head = processor.process(pcm);
  const tail = processor.flush();
  const all = new Int16Array(head.length + tail.length);
  all.set(head);
  all.set(tail, head.length);
  return encodeWav(all, output.sampleRate);
}
