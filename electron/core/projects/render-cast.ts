/**
 * A project's cast as a render speaks it (custom voices as defined now, for the project's key), the
 * price of a segment, the charge, and one segment's audio made.
 */

import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../shared/errors';
import type { ModelId } from '../../shared/options';
import { costMilli } from '../../shared/pricing';
import { cleanText } from '../../shared/text';
import { findVoice } from '../../shared/voices';
import type { CharacterRow, Repos, SegmentRow, Store } from '../store';
import { chargeCredits, lockKeyToCharge } from '../jobs';
import {
  prepareSegment,
  renderSegment,
  segmentInput,
  type CastVoice,
  effectiveVoice,
} from './segment-render';
import type { CustomVoice } from '../../shared/custom-voices';
import { fromCustomVoiceRow, keyAccess, maySpeakWith } from '../voices';

import type { ProjectRendersOptions } from './project-renders';

export const newRenderId = () => randomBytes(16).toString('hex');

/** A segment's billable characters: the code points of its cleaned text, as a request's. */
export const billableCharacters = (text: string) => Array.from(cleanText(text)).length;

/**
 * The custom voice `code` names as defined now, when the project's key may speak with it (its
 * own or the studio's): another key's voice, even one made under a code the cast named once,
 * does not exist for the project.
 */
export async function customVoiceOf(
  store: Pick<Store, 'customVoices'>,
  projectKeyId: string | undefined,
  code: string,
) {
  const found = await store.customVoices.get(code);
  return found && projectKeyId !== undefined && maySpeakWith(found.owner_key_id, keyAccess(projectKeyId))
    ? fromCustomVoiceRow(found)
    : undefined;
}

export async function castOf(store: Store, projectId: string) {
  const rows = await store.projects.characters(projectId);
  const keyId = (await store.projects.getProject(projectId))?.key_id;
  const cast = new Map<string, CharacterRow>(rows.map((c) => [c.id, c]));
  const narrator = rows.find((c) => c.narrator === 1) ?? rows[0];
  // The custom voices the cast names, as defined now (a project renders with today's voices).
  const customVoices = new Map<string, CustomVoice>();
  for (const code of new Set(rows.map((c) => c.voice_code))) {
    if (findVoice(code)) continue;
    const found = await customVoiceOf(store, keyId, code);
    if (found) customVoices.set(code, found);
  }
  return { cast, narrator, customVoices };
}

/** Renders one segment row with the project's cast; writes its audio columns. */
export async function renderOne(
  options: ProjectRendersOptions,
  segment: SegmentRow,
  context: { projectId: string; modelId: ModelId },
  cast: Map<string, CharacterRow>,
  narrator: CastVoice,
  signal: AbortSignal | undefined,
  customVoices: ReadonlyMap<string, CustomVoice>,
) {
  const prepared = await prepareSegment(
    segmentInput({ segment, cast, narrator, model_id: context.modelId, customVoices }),
    options,
  );
  await mkdir(join(options.filesDir, 'projects', context.projectId), { recursive: true });
  return renderSegment(options.engine, prepared, {
    filesDir: options.filesDir,
    projectId: context.projectId,
    text: segment.text,
    signal,
  });
}

/** Charges `cost` to the key in `tx` (with its ledger entry) after checking the balance. */
export async function charge(tx: Repos, keyId: string, jobId: string, cost: number, at: string) {
  const key = await lockKeyToCharge(tx, keyId);
  await chargeCredits(tx, key, jobId, cost, 'render', at, { skipFree: true });
}

export function priceOf(
  segment: SegmentRow,
  cast: Map<string, CharacterRow>,
  narrator: CharacterRow,
  modelId: ModelId,
  customVoices: ReadonlyMap<string, CustomVoice>,
) {
  const speaker = (segment.speaker ? cast.get(segment.speaker) : undefined) ?? narrator;
  // A custom voice is priced as its voice_code.
  const voice = findVoice(effectiveVoice(speaker, customVoices).voice_code);
  if (!voice)
    throw new AppError('UNKNOWN_VOICE', `Unknown voice_code "${speaker.voice_code}".`, {
      voice_code: speaker.voice_code,
    });
  const characters = billableCharacters(segment.text);
  return { characters, cost: costMilli(characters, voice, modelId) };
}

/** The audio columns of a segment a render made: done, with its key, length and checks. */
export function renderedAudio(result: Awaited<ReturnType<typeof renderSegment>>, at: string) {
  return {
    state: 'done' as const,
    audio_key: result.audioKey,
    duration_ms: result.durationMs,
    error: null,
    checks: result.checks.length > 0 ? JSON.stringify(result.checks) : null,
    rendered_at: at,
  };
}
