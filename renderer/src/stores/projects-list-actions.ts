/** The Projects list's actions: reading it a page at a time, making, importing, renaming, copying and deleting projects. */

import type { ProjectSession } from './project-session';
import type { ProjectsSlice } from './projects-slice';

type ListActions = Pick<
  ProjectsSlice,
  | 'loadProjects'
  | 'loadMoreProjects'
  | 'createProject'
  | 'importManuscript'
  | 'importArchive'
  | 'renameProject'
  | 'duplicateProject'
  | 'deleteProject'
>;

export function createProjectsListActions({
  api,
  set,
  get,
  openId,
  failList,
  show,
}: ProjectSession): ListActions {
  /** A project made here goes first in the list, counted. */
  const added = (project: ProjectsSlice['projects'][number]) => ({
    projects: [project, ...get().projects],
    projectsTotal: get().projectsTotal + 1,
  });
  return {
    async loadProjects() {
      try {
        const page = await api.list();
        set({
          projects: page.items,
          projectsNext: page.next_cursor,
          projectsTotal: page.total,
          projectsLoaded: true,
        });
      } catch (error) {
        failList(error);
      }
    },
    async loadMoreProjects() {
      const cursor = get().projectsNext;
      if (!cursor) return;
      try {
        const page = await api.list(cursor);
        // A project made or deleted here meanwhile is already (or no longer) in the list: by id.
        const known = new Set(get().projects.map((p) => p.id));
        set({
          projects: [...get().projects, ...page.items.filter((p) => !known.has(p.id))],
          projectsNext: page.next_cursor,
          projectsTotal: page.total,
        });
      } catch (error) {
        failList(error);
      }
    },
    async createProject(title) {
      set({ projectsError: null });
      try {
        const detail = await api.create({ title });
        set(added(detail.project));
        await get().openProject(detail.project.id);
      } catch (error) {
        failList(error);
      }
    },
    async importManuscript(file, fileName, options) {
      set({ projectsError: null });
      try {
        const detail = await api.importManuscript(file, fileName, options);
        set({
          ...added(detail.project),
          importSummary: {
            projectId: detail.project.id,
            fileName,
            languageChoice: detail.language_choice ?? null,
            legacyEncoding: detail.legacy_encoding ?? null,
            textEncoding: detail.text_encoding ?? null,
          },
        });
        await get().openProject(detail.project.id);
        return true;
      } catch (error) {
        failList(error);
        return false;
      }
    },
    async importArchive(file, fileName) {
      set({ projectsError: null });
      try {
        const detail = await api.importArchive(file, fileName);
        set(added(detail.project));
        return true;
      } catch (error) {
        failList(error);
        return false;
      }
    },
    async renameProject(id, title) {
      set({ projectsError: null });
      try {
        const detail = await api.update(id, { title });
        set({ projects: get().projects.map((p) => (p.id === id ? detail.project : p)) });
        if (openId() === id) show(detail);
      } catch (error) {
        failList(error);
      }
    },
    async duplicateProject(id) {
      set({ projectsError: null });
      try {
        const detail = await api.duplicate(id);
        set(added(detail.project));
      } catch (error) {
        failList(error);
      }
    },
    async deleteProject(id) {
      set({ projectsError: null });
      try {
        await api.remove(id);
        set({
          projects: get().projects.filter((p) => p.id !== id),
          projectsTotal: get().projectsTotal - 1,
        });
        if (openId() === id) get().closeProject();
      } catch (error) {
        failList(error);
      }
    },
  };
}
