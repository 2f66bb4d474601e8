import { createIntl } from 'react-intl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, SESSION_STORAGE_KEY } from '../../renderer/src/lib/api-client';
import { createStudioStore, type StudioStore } from '../../renderer/src/stores';
import { formatShown, type ShownText } from '../../renderer/src/lib/intl-text';
import { DRAFT_KEY } from '../../renderer/src/stores/compose-slice';
import {
  DEFAULT_OPTIONS,
  FIRST_VOICES,
  OPTIONS_KEY,
  sanitiseOptions,
} from '../../renderer/src/stores/options-slice';
import { LOCALE_KEY } from '../../renderer/src/stores/ui-slice';
import { findVoice } from '../../electron/shared/voices';
import { memoryStorage, startSignedIn, type SignedIn } from './helpers';

/** A store's text as the English interface shows it. */
const english = (text: ShownText | null) =>
  text === null ? null : formatShown(createIntl({ locale: 'en', onError: () => undefined }), text);

describe('studio store', () => {
  let s: SignedIn;
  const makeStore = (storage = memoryStorage(), client = s.client()) =>
    createStudioStore({
      client,
      storage,
      pollMs: 20,
      saveDelayMs: 10,
    });

  beforeAll(async () => {
    s = await startSignedIn({ maxTextChars: 2000 });
  });
  afterAll(async () => s?.t.close());

  it('session slice: signed in with the session, signed out without it or with the cookie alone', async () => {
    const store = makeStore();
    await store.getState().checkSession();
    expect(store.getState().sessionStatus).toBe('signed-in');
    expect(store.getState().voices).toHaveLength(26);
    const stranger = makeStore(
      memoryStorage(),
      createApiClient({ baseUrl: s.t.core.url, headers: { cookie: 'ns_session_1=nope' } }),
    );
    await stranger.getState().checkSession();
    expect(stranger.getState().sessionStatus).toBe('signed-out');
    const cookieAlone = makeStore(
      memoryStorage(),
      createApiClient({ baseUrl: s.t.core.url, headers: { cookie: s.cookie } }),
    );
    await cookieAlone.getState().checkSession();
    expect(cookieAlone.getState().sessionStatus).toBe('signed-out');
  });

  it('session slice: a sign-in address signs in once; signing out ends the session', async () => {
    const token = new URL(s.t.core.loginUrl).searchParams.get('token')!;
    // Node keeps no cookies: this fetch keeps the one the sign-in sets, as a browser would.
    let cookie = '';
    const browserFetch: typeof fetch = async (input, init) => {
      const headers = new Headers(init?.headers);
      if (cookie) headers.set('cookie', cookie);
      const response = await fetch(input, { ...init, headers });
      const set = response.headers.get('set-cookie');
      if (set) cookie = set.split(';')[0]!;
      return response;
    };
    const storage = memoryStorage();
    const client = createApiClient({ baseUrl: s.t.core.url, sessionStorage: storage, fetch: browserFetch });
    const store = createStudioStore({ client, storage, signInToken: token });
    await store.getState().checkSession();
    expect(store.getState().sessionStatus).toBe('signed-in');
    expect(storage.map.get(SESSION_STORAGE_KEY)).toMatch(/^[\w-]{43}$/);

    // The same address again (from the browser's history): refused, with the server's reason.
    const again = createStudioStore({
      client: createApiClient({ baseUrl: s.t.core.url }),
      storage: memoryStorage(),
      signInToken: token,
    });
    await again.getState().checkSession();
    expect(again.getState().sessionStatus).toBe('signed-out');
    expect(again.getState().sessionError).toMatch(/already used/);

    await store.getState().signOut();
    expect(store.getState().sessionStatus).toBe('signed-out');
    expect(storage.map.has(SESSION_STORAGE_KEY)).toBe(false);
    await store.getState().checkSession();
    expect(store.getState().sessionStatus).toBe('signed-out');
  });

  it("session slice: a 401 from any call signs the studio out; one inside a session check is the check's", async () => {
    const anonymous = () => createApiClient({ baseUrl: s.t.core.url });
    const store = makeStore(memoryStorage(), anonymous());
    await store.getState().loadVoicePacks();
    expect(store.getState().sessionStatus).toBe('signed-out');
    expect(store.getState().voicePackError).not.toBeNull();
    // The desktop window asks its shell for a token once per check, not once per 401.
    let asked = 0;
    const desktop = createStudioStore({
      client: anonymous(),
      storage: memoryStorage(),
      desktopSignInToken: () => {
        asked++;
        return Promise.reject(new Error('no shell'));
      },
    });
    await desktop.getState().checkSession();
    expect(desktop.getState().sessionStatus).toBe('offline');
    expect(asked).toBe(1);
  });

  it('compose slice: the draft survives a restart (a new store on the same storage)', async () => {
    const storage = memoryStorage();
    const store = makeStore(storage);
    store.getState().setText('Chapter one.');
    store.getState().setText('Chapter one. It was a dark night.');
    await new Promise((r) => setTimeout(r, 30));
    expect(storage.map.get(DRAFT_KEY)).toBe('Chapter one. It was a dark night.');
    expect(makeStore(storage).getState().text).toBe('Chapter one. It was a dark night.');
  });

  it('options slice: values outside the API rules cannot be set; options persist; reset', () => {
    const storage = memoryStorage();
    const store = makeStore(storage);
    const { setOption } = store.getState();
    setOption('speed_rate', 7);
    setOption('pitch_rate', 0.73);
    setOption('volume', 10.4);
    setOption('voice_code', 'No such voice');
    expect(store.getState().options).toMatchObject({
      speed_rate: 2,
      pitch_rate: 0.7,
      volume: 50,
      voice_code: DEFAULT_OPTIONS.voice_code,
    });
    setOption('voice_code', 'vi_female_kieunhi_mn');
    expect(makeStore(storage).getState().options.voice_code).toBe('vi_female_kieunhi_mn');
    store.getState().resetProsody();
    expect(store.getState().options).toMatchObject({
      speed_rate: 1,
      pitch_rate: 1,
      volume: 100,
      voice_code: 'vi_female_kieunhi_mn',
    });
    expect(sanitiseOptions(JSON.parse('{"bitrate":999,"audio_type":"ogg"}'))).toMatchObject({
      bitrate: 128,
      audio_type: 'mp3',
    });
    expect(JSON.parse(storage.map.get(OPTIONS_KEY)!).volume).toBe(100);
  });

  it('options slice: a fresh studio starts on a voice of the interface language; a saved voice stays', () => {
    const fresh = (languages: string[], storage = memoryStorage()) =>
      createStudioStore({ client: s.client(), storage, languages });
    const languageOf = (store: StudioStore) => findVoice(store.getState().options.voice_code)?.language;
    expect(languageOf(fresh(['vi-VN', 'en-US']))).toBe('vi');
    expect(fresh(['vi']).getState().options.voice_code).toBe(FIRST_VOICES.vi);
    expect(languageOf(fresh(['en-GB', 'vi']))).toBe('en');
    expect(languageOf(fresh(['fr-FR']))).toBe('en');
    // The interface language chosen in Settings outranks the browser's.
    expect(languageOf(fresh(['en-US'], memoryStorage({ [LOCALE_KEY]: '"vi"' })))).toBe('vi');
    expect(languageOf(fresh(['vi-VN'], memoryStorage({ [LOCALE_KEY]: '"en"' })))).toBe('en');
    // Choosing the interface language in a fresh studio moves its voice along...
    const storage = memoryStorage();
    const store = fresh(['en-US'], storage);
    store.getState().setLocale('vi');
    expect(languageOf(store)).toBe('vi');
    store.getState().setLocale('system');
    expect(languageOf(store)).toBe('en');
    // ...but never a voice the user chose (saved options), here or after a restart.
    store.getState().setOption('voice_code', 'en_female_elara_br');
    store.getState().setLocale('vi');
    expect(store.getState().options.voice_code).toBe('en_female_elara_br');
    expect(fresh(['vi-VN'], storage).getState().options.voice_code).toBe('en_female_elara_br');
  });

  it("options slice: a voice that is not valid falls back to the interface language's first voice", () => {
    const fresh = (languages: string[], storage = memoryStorage()) =>
      createStudioStore({ client: s.client(), storage, languages });
    // A saved code that names no voice, read at start in a Vietnamese studio: Lê Hoàng, not Emily.
    const saved = memoryStorage({ [OPTIONS_KEY]: JSON.stringify({ voice_code: 'Not A Code', volume: 90 }) });
    const vi = fresh(['vi-VN'], saved);
    expect(vi.getState().options).toMatchObject({ voice_code: FIRST_VOICES.vi, volume: 90 });
    expect(vi.getState().firstVoice()).toBe(FIRST_VOICES.vi);
    // Set in a running studio, it follows the interface language of that moment.
    vi.getState().setOption('voice_code', 'Not A Code');
    expect(vi.getState().options.voice_code).toBe(FIRST_VOICES.vi);
    vi.getState().setLocale('en');
    expect(vi.getState().firstVoice()).toBe(FIRST_VOICES.en);
    vi.getState().setOption('voice_code', 'Not A Code');
    expect(vi.getState().options.voice_code).toBe(FIRST_VOICES.en);
    // Settings' choice of language outranks the browser's here too.
    const chosen = fresh(['en-US'], memoryStorage({ [LOCALE_KEY]: '"vi"' }));
    chosen.getState().setOptions({ ...chosen.getState().options, voice_code: 'Not A Code' });
    expect(chosen.getState().options.voice_code).toBe(FIRST_VOICES.vi);
  });

  it('job slice: generate follows the request to SUCCESS with the chosen options', async () => {
    const store = makeStore();
    await store.getState().checkSession();
    store.getState().setText('The lighthouse keeper climbed the stairs at dusk.');
    store.getState().setOption('voice_code', 'en_female_elara_br');
    store.getState().setOption('speed_rate', 1.3);
    store.getState().setOption('audio_type', 'wav');
    await store.getState().generate();
    const { job, generating, jobError } = store.getState();
    expect(jobError).toBeNull();
    expect(generating).toBe(false);
    expect(job?.status).toBe('SUCCESS');
    expect(job).toMatchObject({
      voice_code: 'en_female_elara_br',
      speed_rate: 1.3,
      audio_type: 'wav',
      generate_srt: true,
    });
    expect(job?.audio_link).toMatch(/audio\.wav$/);
  });

  it('job slice: readable errors next to Generate, never a throw', async () => {
    const store = makeStore();
    store.getState().setText('   ');
    await store.getState().generate();
    expect(english(store.getState().jobError)).toBe('Write or paste some text first.');
    store.getState().setText('Hello.');
    store.getState().setOption('callback_url', 'not a url');
    await store.getState().generate();
    expect(english(store.getState().jobError)).toMatch(/^Callback URL:/);
    store.getState().setOption('callback_url', '');
    store.getState().setText('x'.repeat(2500));
    await store.getState().generate();
    expect(english(store.getState().jobError)).toMatch(/2000|long/i);
    expect(store.getState().generating).toBe(false);
  });

  it('ui slice: view and theme', () => {
    const storage = memoryStorage();
    const store: StudioStore = makeStore(storage);
    expect(store.getState().theme).toBe('system');
    store.getState().setTheme('dark');
    store.getState().setView('history');
    expect(makeStore(storage).getState().theme).toBe('dark');
    expect(store.getState().view).toBe('history');
  });
});
