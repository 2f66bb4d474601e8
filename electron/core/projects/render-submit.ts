/** A render charged and queued: the segments chosen (given, or those of chapters needing audio), priced. */

import { AppError } from '../../shared/errors';
import { projectNotFound } from './project-rows';
import { isoTime } from '../platform/clock';
import type { ProjectRenderRow, RenderItem, SegmentRow } from '../store';
import type { RenderContext } from './render-context';
import { castOf, charge, newRenderId, priceOf } from './render-cast';
import type { RenderSelection } from './project-renders';

export async function submitRender(
  ctx: RenderContext,
  projectId: string,
  keyId: string,
  selection: RenderSelection,
): Promise<ProjectRenderRow> {
  const { options, worker, emit, finishRender } = ctx;
  const { store, clock } = options;
  if (worker.closing) throw new AppError('SHUTTING_DOWN', 'The server is shutting down.');
  const project = await store.projects.getProject(projectId);
  if (!project) throw projectNotFound(projectId);
  const chapters = await store.projects.chapters(projectId);
  const chapterIds = new Set(chapters.map((c) => c.id));
  for (const id of selection.chapterIds ?? []) {
    if (!chapterIds.has(id))
      throw new AppError('INVALID_FIELD', `No chapter "${id}" in this project.`, {
        field: 'chapter_ids',
      });
  }
  const all = await store.projects.segments(projectId);
  const order = new Map(chapters.map((c) => [c.id, c.position]));
  all.sort((a, b) => order.get(a.chapter_id)! - order.get(b.chapter_id)! || a.position - b.position);
  const byId = new Map(all.map((s) => [s.id, s]));
  for (const id of selection.segmentIds ?? []) {
    if (!byId.has(id))
      throw new AppError('INVALID_FIELD', `No segment "${id}" in this project.`, {
        field: 'segment_ids',
      });
  }
  let chosen: SegmentRow[];
  let renderChapters: string[];
  if (selection.segmentIds && selection.segmentIds.length > 0) {
    const wanted = new Set(selection.segmentIds);
    chosen = all.filter((s) => wanted.has(s.id) && s.state !== 'queued' && s.state !== 'rendering');
    renderChapters = [...new Set(chosen.map((s) => s.chapter_id))];
  } else {
    renderChapters =
      selection.chapterIds && selection.chapterIds.length > 0
        ? chapters.filter((c) => selection.chapterIds!.includes(c.id)).map((c) => c.id)
        : chapters.filter((c) => c.included === 1).map((c) => c.id);
    const inChapters = new Set(renderChapters);
    chosen = all.filter(
      (s) =>
        inChapters.has(s.chapter_id) &&
        (s.state === 'not_rendered' || s.state === 'changed' || s.state === 'failed'),
    );
  }
  const { cast, narrator, customVoices } = await castOf(store, projectId);
  if (!narrator) throw new AppError('PROJECT_CONFLICT', 'The project has no narrator.');
  const items: RenderItem[] = chosen.map((s) => {
    const { characters, cost } = priceOf(s, cast, narrator, project.model_id, customVoices);
    return { id: s.id, chapter_id: s.chapter_id, characters, cost_milli: cost, done: false };
  });
  const cost = items.reduce((n, i) => n + i.cost_milli, 0);
  const id = newRenderId();
  const now = isoTime(clock.now());
  await store.transaction(async (tx) => {
    await charge(tx, keyId, id, cost, now);
    await tx.projectRenders.insert({
      id,
      project_id: projectId,
      key_id: keyId,
      chapter_ids: JSON.stringify(renderChapters),
      segment_ids: JSON.stringify(items),
      segments_total: items.length,
      characters_total: items.reduce((n, i) => n + i.characters, 0),
      cost_milli: cost,
      created_at: now,
    });
    await tx.projectRenders.setSegmentStates(
      items.map((i) => i.id),
      'queued',
    );
  });
  let row = (await store.projectRenders.get(id))!;
  if (items.length === 0) {
    await finishRender(row, items, { status: 'done' }, false);
    row = (await store.projectRenders.get(id))!;
  } else {
    emit(
      row,
      keyId,
      projectId,
      items.map((i) => ({ id: i.id, state: 'queued' as const })),
    );
    worker.pump();
  }
  return row;
}
