/**
 * Edits of the open project: its settings, chapters (order, merge, split, import), segments, cast,
 * and undo/redo. Each goes to the server and its answer replaces what is shown.
 */

import { withSegment } from './project-segment-windows';
import type { ProjectSession } from './project-session';
import type { ProjectsSlice } from './projects-slice';

type EditActions = Pick<
  ProjectsSlice,
  | 'updateProject'
  | 'importChapters'
  | 'undo'
  | 'redo'
  | 'updateChapter'
  | 'moveChapter'
  | 'mergeWithNext'
  | 'splitChapter'
  | 'updateSegment'
  | 'addCharacter'
  | 'updateCharacter'
  | 'removeCharacter'
  | 'mergeCharacter'
  | 'splitCharacter'
  | 'applySuggestions'
>;

export function createProjectEditActions(session: ProjectSession): EditActions {
  const { api, set, get, openId, fail, show, edit, refreshSoon } = session;
  return {
    updateProject: (settings) => edit((id) => api.update(id, settings)),
    async importChapters(file, fileName) {
      const id = openId();
      if (!id) return false;
      try {
        show(await api.importInto(id, file, fileName));
        return true;
      } catch (error) {
        fail(error);
        return false;
      }
    },
    undo: () => edit((id) => api.undo(id)),
    redo: () => edit((id) => api.redo(id)),
    updateChapter: (chapterId, change) => edit((id) => api.updateChapter(id, chapterId, change)),
    async moveChapter(chapterId, index) {
      const detail = get().project;
      if (!detail) return;
      const order = detail.chapters.map((c) => c.id).filter((c) => c !== chapterId);
      const to = Math.max(0, Math.min(order.length, index));
      order.splice(to, 0, chapterId);
      if (order.every((c, i) => c === detail.chapters[i]!.id)) return;
      // Shown at once; the server's answer (or a refusal) settles it.
      const byId = new Map(detail.chapters.map((c) => [c.id, c]));
      set({ project: { ...detail, chapters: order.map((c) => byId.get(c)!) } });
      await edit((id) => api.reorderChapters(id, order));
      if (get().projectError) await get().refreshProject();
    },
    async mergeWithNext(chapterId) {
      const chapters = get().project?.chapters ?? [];
      const at = chapters.findIndex((c) => c.id === chapterId);
      const next = chapters[at + 1];
      if (at < 0 || !next) return;
      await edit((id) => api.mergeChapters(id, [chapterId, next.id]));
    },
    splitChapter: (chapterId, segmentId, title) =>
      edit((id) => api.splitChapter(id, chapterId, segmentId, title)),
    async updateSegment(segmentId, change) {
      const id = openId();
      if (!id) return false;
      try {
        const segment = await api.updateSegment(id, segmentId, change);
        const detail = get().project;
        if (detail && detail.project.id === id)
          set({
            ...withSegment({ project: detail, chapterSegments: get().chapterSegments }, segment),
            projectError: null,
          });
        refreshSoon();
        return true;
      } catch (error) {
        fail(error);
        return false;
      }
    },
    async addCharacter(character) {
      const id = openId();
      if (!id) return;
      try {
        await api.addCharacter(id, character);
        await get().refreshProject();
      } catch (error) {
        fail(error);
      }
    },
    async updateCharacter(characterId, change) {
      const id = openId();
      if (!id) return;
      try {
        const character = await api.updateCharacter(id, characterId, change);
        const detail = get().project;
        if (detail && detail.project.id === id)
          set({
            project: {
              ...detail,
              characters: detail.characters.map((c) => (c.id === character.id ? character : c)),
            },
            projectError: null,
          });
        refreshSoon();
      } catch (error) {
        fail(error);
      }
    },
    removeCharacter: (characterId) => edit((id) => api.removeCharacter(id, characterId)),
    mergeCharacter: (characterId, into) => edit((id) => api.mergeCharacter(id, characterId, into)),
    splitCharacter: (characterId, names) => edit((id) => api.splitCharacter(id, characterId, names)),
    applySuggestions: (segmentIds) => edit((id) => api.applySuggestions(id, segmentIds)),
  };
}
