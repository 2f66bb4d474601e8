/**
 * Renders outside the queue, at once: one segment regenerated (with another voice or prosody if
 * asked), and texts spoken by the narrator (spoken headings, credits); each charged, refunded if it fails.
 */

import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../shared/errors';
import { projectNotFound } from './project-rows';
import { findVoice } from '../../shared/voices';
import { isoTime } from '../platform/clock';
import type { SegmentRow } from '../store';
import { refundCredits } from '../jobs';
import {
  audioPathOf,
  hasAudio,
  prepareSegment,
  renderSegment,
  timingsPathOf,
  segmentInput,
  type CastVoice,
} from './segment-render';
import type { RenderContext } from './render-context';
import { segmentFailure } from './render-records';
import { castOf, charge, customVoiceOf, newRenderId, priceOf, renderOne, renderedAudio } from './render-cast';
import type { NarratorSpeech, ProjectRenders } from './project-renders';

export function createDirectRenders(
  ctx: RenderContext,
): Pick<ProjectRenders, 'regenerate' | 'speakAsNarrator'> {
  const { options, worker, emit } = ctx;
  const { engine, store, clock } = options;
  return {
    async regenerate(projectId, segmentId, keyId, overrides = {}) {
      if (worker.closing) throw new AppError('SHUTTING_DOWN', 'The server is shutting down.');
      const project = await store.projects.getProject(projectId);
      const segment = await store.projects.getSegment(segmentId);
      if (!project || !segment || segment.project_id !== projectId) {
        throw new AppError('PROJECT_NOT_FOUND', `No segment "${segmentId}" in project "${projectId}".`, {
          part: 'segment',
          id: segmentId,
        });
      }
      let { cast, narrator, customVoices } = await castOf(store, projectId);
      if (!narrator) throw new AppError('PROJECT_CONFLICT', 'The project has no narrator.');
      const speaker = (segment.speaker ? cast.get(segment.speaker) : undefined) ?? narrator;
      let target = segment;
      const wanted = {
        voice_code: overrides.voice_code ?? speaker.voice_code,
        speed_rate: overrides.speed_rate ?? speaker.speed_rate,
        pitch_rate: overrides.pitch_rate ?? speaker.pitch_rate,
        volume: overrides.volume ?? speaker.volume,
      };
      const wantedCustom =
        customVoices.get(wanted.voice_code) ??
        (findVoice(wanted.voice_code)
          ? undefined
          : await customVoiceOf(store, project.key_id, wanted.voice_code));
      if (!findVoice(wanted.voice_code) && !wantedCustom)
        throw new AppError('UNKNOWN_VOICE', `Unknown voice_code "${wanted.voice_code}".`, {
          field: 'voice_code',
          voice_code: wanted.voice_code,
        });
      const differs = (c: CastVoice) =>
        c.voice_code !== wanted.voice_code ||
        c.speed_rate !== wanted.speed_rate ||
        c.pitch_rate !== wanted.pitch_rate ||
        c.volume !== wanted.volume;
      if (differs(speaker)) {
        // Another voice for this segment: a character with exactly that voice speaks it (reused
        // when the cast has one, else added as "<speaker> (voice)"), so the choice is kept.
        const existing = [...cast.values()].find((c) => !differs(c) && c.narrator === 0);
        const name = `${speaker.name} (${wantedCustom?.name ?? findVoice(wanted.voice_code)!.name})`;
        if (options.service) {
          const characterId =
            existing?.id ?? (await options.service.addCharacter(keyId, projectId, { name, ...wanted })).id;
          await options.service.editSegment(keyId, projectId, segmentId, { speaker: characterId });
          target = (await store.projects.getSegment(segmentId))!;
        } else {
          const character = existing ?? {
            id: randomBytes(16).toString('hex'),
            project_id: projectId,
            name,
            ...wanted,
            narrator: 0,
            confirmed: 1,
          };
          if (!existing) await store.projects.putCharacters([character]);
          target = { ...segment, speaker: character.id };
          await store.projects.putSegments([target]);
        }
        ({ cast, narrator, customVoices } = await castOf(store, projectId));
      }
      const { cost } = priceOf(target, cast, narrator!, project.model_id, customVoices);
      const jobId = newRenderId();
      const at = isoTime(clock.now());
      await store.transaction((tx) => charge(tx, keyId, jobId, cost, at));
      await store.projectRenders.setSegmentAudio(segmentId, { state: 'rendering', error: null });
      emit(undefined, keyId, projectId, [{ id: segmentId, state: 'rendering' }]);
      try {
        const result = await renderOne(
          options,
          target,
          { projectId, modelId: project.model_id },
          cast,
          narrator!,
          undefined,
          customVoices,
        );
        await store.projectRenders.setSegmentAudio(segmentId, renderedAudio(result, isoTime(clock.now())));
        emit(undefined, keyId, projectId, [{ id: segmentId, state: 'done' }]);
      } catch (error) {
        await store.transaction(async (tx) => {
          await tx.projectRenders.setSegmentAudio(segmentId, { state: 'failed', ...segmentFailure(error) });
          await refundCredits(tx, { id: jobId, key_id: keyId }, cost, isoTime(clock.now()));
        });
        emit(undefined, keyId, projectId, [{ id: segmentId, state: 'failed' }]);
        throw error;
      }
      return (await store.projects.getSegment(segmentId))!;
    },

    async speakAsNarrator(projectId, keyId, texts) {
      const project = await store.projects.getProject(projectId);
      if (!project) throw projectNotFound(projectId);
      const { cast, narrator, customVoices } = await castOf(store, projectId);
      if (!narrator) throw new AppError('PROJECT_CONFLICT', 'The project has no narrator.');
      const rows = texts.map(
        (text): SegmentRow =>
          ({ text, speaker: null, quotes: null, emphasis: null }) as unknown as SegmentRow,
      );
      const prepared = await Promise.all(
        rows.map((segment) =>
          prepareSegment(
            segmentInput({ segment, cast, narrator, model_id: project.model_id, customVoices }),
            options,
          ),
        ),
      );
      const fresh = await Promise.all(
        prepared.map(async (p) => !(await hasAudio(options.filesDir, projectId, p.audioKey))),
      );
      const cost = rows
        .filter((_, i) => fresh[i])
        .reduce((n, row) => n + priceOf(row, cast, narrator, project.model_id, customVoices).cost, 0);
      const jobId = newRenderId();
      await store.transaction((tx) => charge(tx, keyId, jobId, cost, isoTime(clock.now())));
      await mkdir(join(options.filesDir, 'projects', projectId), { recursive: true });
      try {
        const spoken: NarratorSpeech[] = [];
        for (const [i, p] of prepared.entries()) {
          const result = await renderSegment(engine, p, {
            filesDir: options.filesDir,
            projectId,
            text: texts[i]!,
          });
          spoken.push({
            text: texts[i]!,
            wavPath: audioPathOf(options.filesDir, projectId, p.audioKey),
            timingsPath: timingsPathOf(options.filesDir, projectId, p.audioKey),
            durationMs: result.durationMs,
          });
        }
        return spoken;
      } catch (error) {
        await store.transaction((tx) =>
          refundCredits(tx, { id: jobId, key_id: keyId }, cost, isoTime(clock.now())),
        );
        throw error;
      }
    },
  };
}
