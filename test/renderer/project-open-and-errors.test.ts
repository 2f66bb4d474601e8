/**
 * Issue 43, point 7, in the studio's store against the real server (signed in as the page is):
 * a project opens on its first included chapter, not on one left out of the book; a view's error
 * goes when the action that raised it is taken again or when the view changes (view-errors.ts).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudioStore, type StudioStore } from '../../renderer/src/stores';
import { VIEW_ERRORS } from '../../renderer/src/stores/view-errors';
import { writeDocx } from '../fixtures/manuscripts';
import { PROJECT_BOOK } from '../fixtures/project-book';
import { memoryStorage, startSignedIn, type SignedIn } from './helpers';

describe('a project opens on its first included chapter; errors do not outlive their action or view', () => {
  let s: SignedIn;
  let store: StudioStore;
  const docx = async () => new Blob([Buffer.from(await writeDocx(PROJECT_BOOK))]);
  const broken = () => new Blob(['PK\u0003\u0004 not a zip']);

  beforeAll(async () => {
    s = await startSignedIn();
    store = createStudioStore({ client: s.client(), storage: memoryStorage(), pollMs: 20, saveDelayMs: 10 });
    await store.getState().checkSession();
  });
  afterAll(async () => s?.t.close());

  it('opens on the first included chapter when the first one is left out', async () => {
    expect(await store.getState().importManuscript(await docx(), 'book.docx')).toBe(true);
    const project = store.getState().project!;
    const [opening, morning] = project.chapters;
    expect(store.getState().openChapterId).toBe(opening!.id);
    await store.getState().updateChapter(opening!.id, { included: false });
    store.getState().closeProject();
    await store.getState().openProject(project.project.id);
    expect(store.getState().project!.chapters[0]!.included).toBe(false);
    expect(store.getState().openChapterId).toBe(morning!.id);
    // Included again, it is first again at the next opening.
    await store.getState().updateChapter(opening!.id, { included: true });
    store.getState().closeProject();
    await store.getState().openProject(project.project.id);
    expect(store.getState().openChapterId).toBe(opening!.id);
  });

  it("clears a failed import's error when the view changes and when importing again", async () => {
    store.getState().closeProject();
    store.getState().setView('projects');
    expect(await store.getState().importManuscript(broken(), 'broken.docx')).toBe(false);
    expect(store.getState().projectsError).toContain('broken.docx');
    store.getState().setView('studio');
    expect(store.getState().projectsError).toBeNull();
    store.getState().setView('projects');
    expect(store.getState().projectsError).toBeNull();

    expect(await store.getState().importManuscript(broken(), 'broken.docx')).toBe(false);
    expect(store.getState().projectsError).toContain('broken.docx');
    // Taken again: gone as soon as the import starts, and it stays gone when the import works.
    const again = store.getState().importManuscript(await docx(), 'book.docx');
    expect(store.getState().projectsError).toBeNull();
    expect(await again).toBe(true);
    expect(store.getState().projectsError).toBeNull();
  });

  it("clears every view's error on a change of view, and none while the view stays", () => {
    const errors = Object.fromEntries(VIEW_ERRORS.map((name) => [name, `${name} failed`]));
    store.getState().setView('api');
    store.setState(errors);
    store.getState().setView('api');
    for (const name of VIEW_ERRORS) expect(store.getState()[name]).toBe(`${name} failed`);
    store.getState().setView('settings');
    for (const name of VIEW_ERRORS) expect(store.getState()[name]).toBeNull();
  });
});
