/** From a resolved engine voice and its pack's manifest to what the engine opens: files and speaker. */

import type { NeuralVoice } from '../engine';
import { AppError } from '../../shared/errors';
import type { EngineVoice, KokoroVoice, PackManifest } from '../../shared/voice-packs';
import { pathInside } from '../platform/outside-names';
import { kokoroVoiceInfo } from './catalogue';
import type { KokoroMix } from './kokoro-names';
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

/** A Piper speaker of a pack: by name (`speaker_id_map`) or number; undefined when it has none such. */
export function piperSpeaker(
  speakers: Readonly<Record<string, number>> | readonly string[] | null,
  numSpeakers: number,
  speaker: string | undefined,
): number | undefined {
  if (speaker === undefined) return 0;
  if (speakers && !Array.isArray(speakers) && Object.hasOwn(speakers, speaker))
    return (speakers as Record<string, number>)[speaker];
  if (Array.isArray(speakers) && speakers.includes(speaker)) return speakers.indexOf(speaker);
  if (/^\d+$/.test(speaker) && Number(speaker) < numSpeakers) return Number(speaker);
  return undefined;
}

/** The Piper speaker number of a pack base in an installed manifest; undefined when it has none such. */
export function manifestSpeaker(manifest: PackManifest, speaker: string | undefined): number | undefined {
  return piperSpeaker(manifest.speakers, manifest.num_speakers, speaker);
}

/** The pack's file `name` (from its manifest) as a path inside the pack's folder. */
function packFile(dataDir: string, manifest: PackManifest) {
  const dir = packDir(dataDir, manifest.id);
  return (name: string) =>
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
}

/**
 * The engine's view of a Kokoro voice or mix (Kokoro-FastAPI's names) spoken by `pack`, which
 * holds `voices`, the mix's parts in order.
 */
export function toKokoroMixVoice(
  dataDir: string,
  pack: PackManifest,
  voices: readonly KokoroVoice[],
  mix: KokoroMix,
): NeuralVoice {
  const file = packFile(dataDir, pack);
  const first = voices[0]!;
  const single = mix.parts.length === 1;
  return {
    family: 'kokoro',
    packId: pack.id,
    modelPath: file(pack.model),
    vocabPath: file(pack.config),
    voicePath: file(first.file),
    voiceName: mix.text,
    espeakVoice: KOKORO_ESPEAK[first.name[0] ?? ''] ?? 'en-us',
    ...(single
      ? {}
      : {
          mix: mix.parts.map((part, i) => ({
            voicePath: file(voices[i]!.file),
            name: part.name,
            weight: part.weight,
          })),
        }),
  };
}

/** The engine's view of `voice` in the installed pack `manifest`; undefined for eSpeak. */
export function toNeuralVoice(
  dataDir: string,
  voice: EngineVoice,
  manifest: PackManifest | undefined,
): NeuralVoice | undefined {
  if (voice.kind === 'espeak' || !manifest || manifest.id !== voice.packId) return undefined;
  const file = packFile(dataDir, manifest);
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
