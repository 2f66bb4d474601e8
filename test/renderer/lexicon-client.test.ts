/**
 * The studio's typed client for the pronunciation lexicon, against the real server: the calls
 * the Lexicon page and the compose box make (list, add, edit, remove, import, export) and the
 * preview addresses its audio elements play, which the session opens.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient, type ApiClient } from '../../renderer/src/lib/api-client';
import { startSignedIn, type SignedIn } from './helpers';

describe('api-client: the lexicon', () => {
  let s: SignedIn;
  let session: ApiClient;
  let bearer: ApiClient;

  beforeAll(async () => {
    s = await startSignedIn();
    session = s.client();
    bearer = createApiClient({ baseUrl: s.t.core.url, apiKey: s.t.key });
  });
  afterAll(async () => s?.t.close());

  it('adds, finds, edits and removes entries with the session; a bearer key may only read', async () => {
    const { entry, version } = await session.addLexiconEntry({
      language: 'en',
      match: 'Saoirse',
      kind: 'ipa',
      replacement: 'ˈsɪɚʃə',
    });
    expect(version).toBe(1);
    expect((await bearer.lexicon({ q: 'saoirse' })).items.map((e) => e.id)).toEqual([entry.id]);
    expect((await bearer.lexicon({ language: 'fr' })).items).toEqual([]);
    const edited = await session.updateLexiconEntry(entry.id, { ...entry, whole_word: false });
    expect(edited.entry.whole_word).toBe(false);
    const refused = await bearer
      .addLexiconEntry({ language: 'en', match: 'x', kind: 'respell', replacement: 'y' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(401);
    const bad = await session
      .addLexiconEntry({ language: 'en', match: 'x', kind: 'ipa', replacement: 'ʘ' })
      .catch((e: unknown) => e as ApiError);
    expect(bad).toMatchObject({ code: 'INVALID_FIELD', status: 400 });
    expect(await session.removeLexiconEntry(entry.id)).toEqual({ version: 3, id: entry.id });
  });

  it('imports a file and exports the lexicon as a file', async () => {
    const result = await session.importLexicon({
      format: 'csv',
      text: 'language,match,kind,replacement\nen,GIF,respell,jif\n',
    });
    expect(result).toMatchObject({ added: 1 });
    const file = await session.lexiconExport({ format: 'csv', language: 'en' });
    expect(await file.text()).toContain('en,GIF,respell,jif,false,true,');
  });

  it('plays previews of saved and draft entries from addresses the session opens', async () => {
    const { items } = await session.lexicon();
    const saved = session.lexiconPreviewUrl(items[0]!.id, { voice_code: 'en_female_emily_us' });
    expect(saved).toBe(
      `${s.t.core.url}/api/v1/lexicon/${items[0]!.id}/preview?voice_code=en_female_emily_us&studio_session=${s.value}`,
    );
    const draft = session.lexiconPreviewUrl(
      { language: 'en', match: 'Nguyen', kind: 'respell', replacement: 'win', whole_word: true },
      { variant: 'without' },
    );
    expect(draft).toBe(
      `${s.t.core.url}/api/v1/lexicon/preview?language=en&match=Nguyen&kind=respell&replacement=win&whole_word=true&variant=without&studio_session=${s.value}`,
    );
    for (const url of [saved, draft]) {
      const response = await fetch(url, { headers: { cookie: s.cookie } });
      expect(response.status).toBe(200);
      expect(new Uint8Array(await response.arrayBuffer()).length).toBeGreaterThan(1000);
    }
    expect((await bearer.lexiconPreview(items[0]!.id)).type).toBe('audio/wav');
  });
});
