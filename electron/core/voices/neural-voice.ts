/** From a resolved engine voice and its pack's manifest to what the engine opens: files and speaker. */

import type { NeuralVoice } from '../engine/engine';
import { AppError } from '../../shared/errors';
import type { EngineVoice, PackManifest } from '../../shared/voice-packs';
import { pathInside } from '../platform/outside-names';
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
  const file = (name: string) =>
    pathInside(
      dir,
      name,
      (problem) =>
        new AppError(
          'VOICE_PACK_INVALID',
          `The manifest of ${manifest.id} names a file "${name}" that ${problem}.`,
        ),
      { nested: true },
    );
  if (voice.kind === 'piper') {
    return {
      family: 'piper',
      packId: manifest.id,
      modelPath: file(manifest.model),
      configPath: file(manifest.config),
      speaker: voice.speaker,
    };
  }
  const info = kokoroVoiceInfo(voice.voice, voice.voiceFile);
  return {
    family: 'kokoro',
    packId: manifest.id,
    modelPath: file(manifest.model),
    vocabPath: file(manifest.config),
    voicePath: file(info.file),
    voiceName: info.name,
    espeakVoice: KOKORO_ESPEAK[info.name[0] ?? ''] ?? 'en-us',
  };
}
