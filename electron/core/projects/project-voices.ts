/**
 * A project's voices and language: which voices its key may cast, the language a manuscript
 * chooses, the voices a new or recast character gets.
 */

import { AppError } from '../../shared/errors';
import type { Manuscript } from '../../shared/manuscript';
import type { LanguageChoice } from '../../shared/projects';
import { findVoice, VOICES } from '../../shared/voices';
import type { CharacterRow, Repos } from '../store';
import { keyAccess, maySpeakWith, type CustomVoiceAccess } from '../voices';
import { chooseVoices, PROSODY_STEPS, type VoiceChoice } from './attribution';
import type { ImportOverrides } from './project-inputs';

/**
 * The custom voices a project of the key `keyId` may cast: the key's own and the studio's (never
 * another key's, not even when the signed-in studio, which sees every voice, edits the project).
 */
export const castAccess = (keyId: string): CustomVoiceAccess => keyAccess(keyId);

/**
 * A catalogue voice code or a custom voice the project's key `keyId` may speak with (its own or
 * the studio's); UNKNOWN_VOICE otherwise: another key's voice does not exist for a project.
 */
export async function checkVoice(
  code: string,
  keyId: string,
  store: Pick<Repos, 'customVoices'>,
): Promise<void> {
  if (findVoice(code)) return;
  const custom = await store.customVoices.get(code);
  if (!custom || !maySpeakWith(custom.owner_key_id, castAccess(keyId))) {
    throw new AppError(
      'UNKNOWN_VOICE',
      `Unknown voice_code "${code}". GET /api/v1/voices and GET /api/v1/custom-voices list the voices.`,
      {
        field: 'voice_code',
      },
    );
  }
}

/** `vi-VN` → `vi`; lower case. */
export function normaliseLanguage(language: string): string {
  return language.trim().toLowerCase().split(/[-_]/)[0] || 'en';
}

/** The catalogue's first voice of the language (the first English one when it has none). */
export function defaultVoice(language: string): string {
  return (VOICES.find((v) => v.language === language) ?? VOICES.find((v) => v.language === 'en')!).voice_code;
}

/**
 * An imported project's language: the request's, else the language of the text (detected once
 * by the reader from its letters and words, the whole book sampled: Manuscript.textLanguage), which wins over metadata that disagrees (most
 * Vietnamese EPUBs say `en`); else the metadata's, else the voice's, else English.
 */
export function chooseLanguage(manuscript: Manuscript, overrides: ImportOverrides): LanguageChoice {
  const metadata = manuscript.language ? normaliseLanguage(manuscript.language) : null;
  const detected = manuscript.textLanguage;
  const choice = (language: string, source: LanguageChoice['source']): LanguageChoice => ({
    language: normaliseLanguage(language),
    source,
    metadata,
    detected,
  });
  const voiceLanguage = overrides.voice_code ? findVoice(overrides.voice_code)?.language : undefined;
  if (overrides.language) return choice(overrides.language, 'request');
  if (detected !== 'unknown') return choice(detected, 'text');
  if (metadata) return choice(metadata, 'metadata');
  if (voiceLanguage) return choice(voiceLanguage, 'voice');
  return choice('en', 'default');
}

/**
 * A cast re-voiced in `language` (PATCH …/projects/<id> with `recast`): the narrator (`narrator`,
 * changed in place unless its voice was just chosen) gets the language's first voice when its
 * catalogue voice speaks another; the characters whose catalogue voices speak another language
 * get voices of it, of their voices' gender (chooseVoices); answered are the characters changed.
 * Custom voices, and a language without catalogue voices, leave the cast as it is.
 */
export function recastVoices(
  narrator: CharacterRow,
  others: readonly CharacterRow[],
  language: string,
  narratorChosen: boolean,
): CharacterRow[] {
  if (!VOICES.some((v) => v.language === language)) return [];
  const speaksOther = (code: string) => {
    const found = findVoice(code);
    return found !== undefined && found.language !== language;
  };
  if (!narratorChosen && speaksOther(narrator.voice_code)) narrator.voice_code = defaultVoice(language);
  const moving = others.filter((c) => speaksOther(c.voice_code));
  const taken = others.filter((c) => !moving.includes(c)).map((c) => c.voice_code);
  const chosen = chooseVoices(
    moving.map((c) => ({ name: c.id, gender: findVoice(c.voice_code)!.gender })),
    language,
    narrator.voice_code,
    taken,
  );
  return moving.map((c) => ({ ...c, voice_code: chosen.get(c.id)?.voice_code ?? c.voice_code }));
}

/**
 * A new character with its chosen voice, speaking at `base`'s speed, pitch and volume moved by
 * the choice's prosody step.
 */
export function voicedCharacter(
  projectId: string,
  id: string,
  name: string,
  { voice_code, step }: VoiceChoice,
  base: Pick<CharacterRow, 'speed_rate' | 'pitch_rate' | 'volume'>,
  confirmed: CharacterRow['confirmed'],
): CharacterRow {
  return {
    id,
    project_id: projectId,
    name,
    voice_code,
    speed_rate: stepRate(base.speed_rate, PROSODY_STEPS[step]!.speed),
    pitch_rate: stepRate(base.pitch_rate, PROSODY_STEPS[step]!.pitch),
    volume: base.volume,
    narrator: 0,
    confirmed,
  };
}

/** A rate (speed or pitch) moved by a prosody step, kept within 0.5–2.0 at one decimal. */
function stepRate(rate: number, step: number): number {
  return Math.min(2, Math.max(0.5, Math.round((rate + step) * 10) / 10));
}
