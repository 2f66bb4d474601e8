/**
 * What the public metadata of the datasets behind multi-speaker voice packs says about their
 * speakers, in one table, each with its source. Voice codes are given speakers of their own
 * gender from it (assignment.ts); a speaker the table does not name is "gender unknown", and
 * the catalogue says how much of a pack is known (`speaker_genders`).
 *
 * Only what a source states is here. Packs not in the table (en_GB-aru, en_GB-semaine,
 * en_GB-vctk, en_US-arctic, en_US-l2arctic, en_US-libritts, en_US-libritts_r, es_ES-sharvard,
 * fr_FR-upmc, …) are `unknown` here even where their corpora publish speaker lists (VCTK's
 * speaker-info.txt, LibriTTS's SPEAKERS.txt): those lists have not been transcribed yet.
 */

import type { PackManifest, SpeakerGenderCoverage } from '../../shared/voice-packs';

export type SpeakerGender = 'female' | 'male';

interface DatasetSpeakers {
  /** Where the genders come from, and how far that source was checked. */
  source: string;
  /** Speaker name as in the voice's `speaker_id_map` → gender. */
  genders: Readonly<Record<string, SpeakerGender>>;
}

/**
 * By Piper voice name (the pack id without its quality tier).
 *
 * VIVOS (AILAB, VNU-HCM; 46 training + 19 test speakers, 31 female and 34 male overall per
 * the Montreal Forced Aligner's corpus page, MontrealCorpusTools/mfa-models
 * `corpus/vietnamese/vivos/README.md`): the corpus ships `train/genders.txt` and
 * `test/genders.txt` ("VIVOSSPK01 f"). Those files could not be read here; the sixteen
 * training speakers below are as a public third-party script lists them from
 * `train/genders.txt` (a VIVOS voice-preset seeder, `SPEAKERS` table: 8 f, 8 m). Not checked
 * against the corpus itself. The other 49 speakers are unknown here. Per-speaker accents are
 * not published (the corpus was recorded in Ho Chi Minh City; its speakers' dialects are not
 * listed), so no vivos speaker is chosen by accent.
 */
export const SPEAKER_METADATA: Readonly<Record<string, DatasetSpeakers>> = {
  'vi_VN-vivos': {
    source:
      'VIVOS train/genders.txt as listed by a third-party VIVOS preset script (16 of 65 speakers; not checked against the corpus)',
    genders: {
      VIVOSSPK01: 'female',
      VIVOSSPK05: 'female',
      VIVOSSPK10: 'female',
      VIVOSSPK16: 'female',
      VIVOSSPK25: 'female',
      VIVOSSPK34: 'female',
      VIVOSSPK40: 'female',
      VIVOSSPK46: 'female',
      VIVOSSPK04: 'male',
      VIVOSSPK07: 'male',
      VIVOSSPK12: 'male',
      VIVOSSPK18: 'male',
      VIVOSSPK22: 'male',
      VIVOSSPK27: 'male',
      VIVOSSPK33: 'male',
      VIVOSSPK39: 'male',
    },
  },
};

/** A Piper voice without its quality tier (`vi_VN-vivos-x_low` → `vi_VN-vivos`). */
function piperVoiceName(id: string): string {
  return id.replace(/-(x_low|low|medium|high)$/, '');
}

/** The gender the table gives speaker `name` of pack `packId`; undefined when not known. */
export function speakerGender(packId: string, name: string): SpeakerGender | undefined {
  return SPEAKER_METADATA[piperVoiceName(packId)]?.genders[name];
}

/** How much of a Piper pack's speakers' genders is known, from its speaker names (null: not listed). */
export function speakerGenderCoverage(
  packId: string,
  numSpeakers: number,
  names: readonly string[] | null,
): SpeakerGenderCoverage {
  if (numSpeakers <= 1) return 'single';
  const table = SPEAKER_METADATA[piperVoiceName(packId)];
  if (!table) return 'unknown';
  const known = names ? names.filter((n) => table.genders[n] !== undefined).length : -1;
  return known === numSpeakers ? 'known' : 'partial';
}

/** Speaker names of a Piper pack in id order (index → name; missing ids are undefined). */
export function speakerNames(pack: Pick<PackManifest, 'speakers' | 'num_speakers'>): (string | undefined)[] {
  const names: (string | undefined)[] = new Array<string | undefined>(pack.num_speakers).fill(undefined);
  for (const [name, id] of Object.entries(pack.speakers)) if (id < names.length) names[id] = name;
  return names;
}

/**
 * How the Voice library names speaker `index` of a Piper pack: `VIVOSSPK01, female` where the
 * table says, `speaker 3 (VIVOSSPK13), gender unknown` where it does not, or `one speaker`.
 */
export function speakerLabel(
  pack: Pick<PackManifest, 'id' | 'speakers' | 'num_speakers'>,
  index: number,
): string {
  if (pack.num_speakers <= 1) return 'one speaker';
  const name = speakerNames(pack)[index];
  const gender = name === undefined ? undefined : speakerGender(pack.id, name);
  if (gender && name) return `${name}, ${gender}`;
  return `speaker ${index}${name !== undefined ? ` (${name})` : ''}, gender unknown`;
}
