/**
 * What the studio keeps of a writer's text: a draft that Clear or an opened file replaced (kept
 * apart from the autosaved draft, so a reload still offers Undo), the Export page's fields across
 * views and reloads, and a manuscript read through the client (the studio's session, real HTTP).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudioStore } from '../../renderer/src/stores';
import { DRAFT_KEY, REPLACED_DRAFT_KEY } from '../../renderer/src/stores/compose-slice';
import { EXPORT_DRAFT_KEY, sanitiseExportDraft } from '../../renderer/src/stores/export-slice';
import { ApiError } from '../../renderer/src/lib/api-client';
import { PDF_BOOK, writePdfBook } from '../fixtures/pdf-files';
import { memoryStorage, startSignedIn, type SignedIn } from './helpers';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('keeping the writer’s text', () => {
  let s: SignedIn;
  const makeStore = (storage: ReturnType<typeof memoryStorage>) =>
    createStudioStore({ client: s.client(), storage, pollMs: 20, saveDelayMs: 10 });

  beforeAll(async () => {
    s = await startSignedIn();
  });
  afterAll(async () => s?.t.close());

  it('keeps a cleared draft apart from the autosaved one, for Undo after a reload', async () => {
    const storage = memoryStorage();
    const store = makeStore(storage);
    store.getState().setText('A chapter worth keeping.');
    store.getState().rememberDraft({ kind: 'clear' });
    store.getState().setText('');
    await wait(30);
    expect(storage.getItem(DRAFT_KEY)).toBe('');
    expect(JSON.parse(storage.getItem(REPLACED_DRAFT_KEY)!)).toMatchObject({
      text: 'A chapter worth keeping.',
    });

    const reloaded = makeStore(storage);
    expect(reloaded.getState().replacedDraft).toMatchObject({
      text: 'A chapter worth keeping.',
      by: { kind: 'clear' },
    });
    const taken = reloaded.getState().takeReplacedDraft();
    expect(taken?.text).toBe('A chapter worth keeping.');
    expect(reloaded.getState().replacedDraft).toBeNull();
    expect(makeStore(storage).getState().replacedDraft).toBeNull();
  });

  it('keeps nothing for an empty draft, and forgets the kept one when the editor’s own undo brings it back', () => {
    const store = makeStore(memoryStorage());
    store.getState().rememberDraft({ kind: 'clear' });
    expect(store.getState().replacedDraft).toBeNull();
    store.getState().setText('Old text.');
    store.getState().rememberDraft({ kind: 'file', fileName: 'book.docx' });
    store.getState().setText('# New\n\nFrom the file.');
    expect(store.getState().replacedDraft?.by).toEqual({ kind: 'file', fileName: 'book.docx' });
    store.getState().setText('Old text.');
    expect(store.getState().replacedDraft).toBeNull();
  });

  it('keeps the Export page’s fields in the store and in storage, made valid when read back', async () => {
    const storage = memoryStorage();
    const store = makeStore(storage);
    store
      .getState()
      .updateExportDraft({ text: '# One\n\nHello.', title: 'Kept', author: 'Ann', format: 'mp3' });
    store.getState().updateExportDraft({ preset: 'podcast' });
    expect(store.getState().exportDraft).toMatchObject({
      text: '# One\n\nHello.',
      title: 'Kept',
      format: 'mp3',
      preset: 'podcast',
    });
    await wait(30);
    expect(makeStore(storage).getState().exportDraft).toMatchObject({
      title: 'Kept',
      author: 'Ann',
      format: 'mp3',
      preset: 'podcast',
    });
    expect(
      sanitiseExportDraft({
        format: 'wma' as never,
        voice: 'No body',
        cover: { name: 'x', base64: '', type: 'image/gif' },
      }),
    ).toMatchObject({
      format: 'm4b',
      voice: null,
      cover: null,
    });
    expect(makeStore(memoryStorage({ [EXPORT_DRAFT_KEY]: '{broken' })).getState().exportDraft.text).toBe('');
  });

  it('reads a manuscript through the client as the signed-in studio; a picture gets the server’s message', async () => {
    const client = s.client();
    const result = await client.readManuscript(new Blob([new Uint8Array(await writePdfBook())]), 'book.pdf');
    expect(result.chapters.map((c) => c.title)).toEqual(PDF_BOOK.chapters.map((c) => c.title));
    expect(result.text.startsWith(`# ${PDF_BOOK.chapters[0]!.title}\n\n`)).toBe(true);
    const refused = await client
      .readManuscript(new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0])]), 'cover.png')
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect((refused as ApiError).message).toContain('"cover.png" is not a manuscript we can read');
  });
});
