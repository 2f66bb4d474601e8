/** From a resolved engine voice and its pack's manifest to what the engine opens: files and speaker. */

import { join } from 'node:path';
import type { NeuralVoice } from '../engine/engine';
import type { EngineVoice, PackManifest } from '../../shared/voice-packs';
import { kokoroVoiceInfo } from './catalogue';
import { packDir } from './layout';

/** eSpeak voices that read Kokoro's languages, by the voice name's first letter (its locale). */
const KOKORO_ESPEAK: Record<string, string> = {
  a: 'en-us',
  b: 'en',
  e: 'es',
  f: 'fr',
  h: 'hi',
  i: 'it',
  j: 'ja',
  p: 'pt-br',
  z: 'cmn',
};

/** The engine's view of `voice` in the installed pack `manifest`; undefined for eSpeak. */
export function toNeuralVoice(
  dataDir: string,
  voice: EngineVoice,
  manifest: PackManifest | undefined,
): NeuralVoice | undefined {
  if (voice.kind === 'espeak' || !manifest || manifest.id !== voice.packId) return undefined;
  const dir = packDir(dataDir, manifest.id);
  if (voice.kind === 'piper') {
    return {
      family: 'piper',
      packId: manifest.id,
      modelPath: join(dir, manifest.model),
      configPath: join(dir, manifest.config),
      speaker: voice.speaker,
    };
  }
  const info = kokoroVoiceInfo(voice.voice, voice.voiceFile);
  return {
    family: 'kokoro',
    packId: manifest.id,
    modelPath: join(dir, manifest.model),
    vocabPath: join(dir, manifest.config),
    voicePath: join(dir, info.file),
    voiceName: info.name,
    espeakVoice: KOKORO_ESPEAK[info.name[0] ?? ''] ?? 'en-us',
  };
}
