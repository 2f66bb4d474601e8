/**
 * Worker thread hosting one long-lived eSpeak NG instance. Receives WorkerRequest
 * messages, answers WorkerResponse messages; audio is transferred, not copied.
 */

import { parentPort } from 'node:worker_threads';
import { AppError, toWireError } from '../../../shared/errors';
import type { EngineSettings, RawWordEvent, WorkerReady, WorkerRequest, WorkerResponse } from './protocol';

interface EspeakEvent {
  type: string;
  text_position: number;
  word_length: number;
  audio_position: number;
}

interface EspeakInstance {
  set_voice(name: string): number;
  set_rate(wpm: number): number;
  set_pitch(pitch: number): number;
  set_range(range: number): number;
  set_volume(volume: number): number;
  get_samplerate(): number;
  synthesize(text: string, callback: (samples: Int16Array, events: EspeakEvent[]) => number): void;
}

if (!parentPort) throw new Error('espeak-worker must run in a worker thread');
const port = parentPort;

let instance: EspeakInstance;
const WARM_UP: EngineSettings = { voice: 'en-us', rate: 175, pitch: 50, range: 50, volume: 60 };
let current: EngineSettings | undefined;

function applySettings(settings: EngineSettings): void {
  if (current?.voice !== settings.voice) {
    const code = instance.set_voice(settings.voice);
    // eSpeak keeps the previous voice when a name is unknown: never speak with the wrong one.
    if (code !== 0) throw new AppError('UNKNOWN_VOICE', `engine voice not found: ${settings.voice}`);
    current = undefined;
  }
  if (current?.rate !== settings.rate) instance.set_rate(settings.rate);
  if (current?.pitch !== settings.pitch) instance.set_pitch(settings.pitch);
  if (current?.range !== settings.range) instance.set_range(settings.range);
  if (current?.volume !== settings.volume) instance.set_volume(settings.volume);
  current = { ...settings };
}

function synthesize(request: WorkerRequest): WorkerResponse {
  applySettings(request.settings);
  const parts: Int16Array[] = [];
  let total = 0;
  const words: RawWordEvent[] = [];
  const sentenceMs: number[] = [];
  instance.synthesize(request.text, (samples, events) => {
    if (samples.length > 0) {
      parts.push(samples);
      total += samples.length;
    }
    for (const e of events) {
      if (e.type === 'word') {
        words.push({ textPosition: e.text_position, wordLength: e.word_length, audioMs: e.audio_position });
      } else if (e.type === 'sentence') {
        sentenceMs.push(e.audio_position);
      }
    }
    return 0;
  });
  const pcm = new Int16Array(total);
  let offset = 0;
  for (const p of parts) {
    pcm.set(p, offset);
    offset += p.length;
  }
  return {
    seq: request.seq,
    type: 'result',
    pcm: pcm.buffer,
    sampleRate: instance.get_samplerate(),
    words,
    sentenceMs,
  };
}

async function start(): Promise<void> {
  try {
    const { default: load } = (await import('@echogarden/espeak-ng-emscripten')) as unknown as {
      default: () => Promise<{ eSpeakNGWorker: new () => EspeakInstance }>;
    };
    const module = await load();
    instance = new module.eSpeakNGWorker();
    // The first synthesis of an instance is ~40× slower than the rest (JIT warm-up):
    // pay it now rather than on the first request.
    synthesize({ seq: 0, type: 'synthesize', text: 'Ready.', settings: WARM_UP });
    port.postMessage({ type: 'ready', sampleRate: instance.get_samplerate() } satisfies WorkerReady);
  } catch (error) {
    port.postMessage({ type: 'failed', message: String(error) } satisfies WorkerReady);
    return;
  }
  port.on('message', (request: WorkerRequest) => {
    let response: WorkerResponse;
    try {
      response = synthesize(request);
    } catch (error) {
      response = { seq: request.seq, type: 'error', error: toWireError(error, 'ENGINE_FAILED') };
    }
    port.postMessage(response, response.type === 'result' ? [response.pcm] : []);
  });
}

void start();
