import { createIntl } from 'react-intl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ssmlErrorPlace } from '../../renderer/src/lib/dialogue-ssml';
import { countCharacters } from '../../renderer/src/lib/estimate';
import { createStudioStore } from '../../renderer/src/stores';
import { formatShown, setCurrentIntl, type ShownText } from '../../renderer/src/lib/intl-text';
import vi from '../../renderer/src/i18n/messages/vi.json';
import {
  DIALOGUE_KEY,
  NOTHING_TO_SPEAK_MESSAGE,
  SSML_KEY,
  sanitiseDialogue,
} from '../../renderer/src/stores/compose-slice';
import { memoryStorage, startSignedIn, type SignedIn } from './helpers';

/** A store's text as the English interface shows it. */
const english = (text: ShownText | null) =>
  text === null ? null : formatShown(createIntl({ locale: 'en', onError: () => undefined }), text);

const NARRATOR = 'en_male_onyx_default';
const CHARACTER = 'en_female_nova_default';
const DIALOGUE = 'The keeper turned.\n\n“Who is there?” she asked.';

describe('compose slice: dialogue voices and SSML', () => {
  let s: SignedIn;
  const makeStore = (storage = memoryStorage()) =>
    createStudioStore({
      client: s.client(),
      storage,
      pollMs: 20,
      saveDelayMs: 10,
    });
  /** A store with the dialogue typed, narrator and character set. */
  const dialogueStore = (storage = memoryStorage()) => {
    const store = makeStore(storage);
    store.getState().setText(DIALOGUE);
    store.getState().setOption('voice_code', NARRATOR);
    store.getState().setDialogueEnabled(true);
    store.getState().setCharacterVoice(CHARACTER);
    return store;
  };

  beforeAll(async () => {
    s = await startSignedIn();
  });
  afterAll(async () => s?.t.close());

  it('generate sends the dialogue as SSML in the narrator’s voice_code', async () => {
    const store = dialogueStore();
    await store.getState().generate();
    const { job, jobError } = store.getState();
    expect(jobError).toBeNull();
    expect(job?.status).toBe('SUCCESS');
    expect(job?.voice_code).toBe(NARRATOR);
    // Charged for the words, not the markup: what the compose box estimated for the plain draft.
    expect(job?.characters).toBe(countCharacters(DIALOGUE));
    expect(job?.input_text).toBe(
      `<speak>\n<p>The keeper turned.</p>\n<p><voice name="${CHARACTER}">“Who is there?”</voice> she asked.</p>\n</speak>`,
    );
  });

  it('closed dialogue panel, or the narrator reading everything: plain text as typed', async () => {
    const store = dialogueStore();
    store.getState().setDialogueEnabled(false);
    await store.getState().generate();
    expect(store.getState().job?.input_text).toBe(DIALOGUE);
    store.getState().setDialogueEnabled(true);
    store.getState().setCharacterVoice(null);
    await store.getState().generate();
    expect(store.getState().job?.input_text).toBe(DIALOGUE);
  });

  it('a paragraph voice set on the panel is sent, and follows its paragraph when one is added above', async () => {
    const store = dialogueStore();
    store.getState().setParagraphVoice(0, 'en_female_elara_br');
    store.getState().setText(`Chapter one.\n\n${DIALOGUE}`);
    expect(store.getState().dialogue.paragraphs).toEqual({ 1: 'en_female_elara_br' });
    await store.getState().generate();
    expect(store.getState().job?.input_text).toContain(
      '<p>Chapter one.</p>\n<p><voice name="en_female_elara_br">The keeper turned.</voice></p>',
    );
    store.getState().clearParagraphVoices();
    expect(store.getState().dialogue.paragraphs).toEqual({});
  });

  it('SSML mode sends the text as typed; without <speak> it says so instead of sending', async () => {
    const store = makeStore();
    store.getState().setSsml(true);
    store.getState().setText('Hello <break time="300ms"/> there.');
    await store.getState().generate();
    expect(english(store.getState().jobError)).toMatch(/SSML starts with <speak>/);
    const ssml = `<speak>Hello <break time="300ms"/> <voice name="${CHARACTER}">there.</voice></speak>`;
    store.getState().setText(ssml);
    await store.getState().generate();
    expect(store.getState().jobError).toBeNull();
    expect(store.getState().job).toMatchObject({ status: 'SUCCESS', input_text: ssml });
    // The compose box's estimate counts the spoken text, as the server bills it.
    expect(store.getState().job?.characters).toBe(countCharacters(ssml));
    expect(countCharacters(ssml)).toBeLessThan(ssml.length / 2);
  });

  it('malformed SSML in the Vietnamese studio: the sentence in Vietnamese, its line and column kept', async () => {
    setCurrentIntl(createIntl({ locale: 'vi', messages: vi }));
    try {
      const store = makeStore();
      store.getState().setText('<speak>\n<p>Một.</p>\n<p><prosody rate="9">Hai.</prosody></p>\n</speak>');
      await store.getState().generate();
      const { jobError, jobErrorCode, jobErrorPlace } = store.getState();
      expect(jobErrorCode).toBe('SSML_INVALID');
      expect(jobError).toBe(
        'Không đọc được SSML. Ở dòng 3, cột 13: Giá trị “9” của thuộc tính rate trong <prosody> nằm ngoài khoảng cho phép.',
      );
      expect(jobErrorPlace).toMatchObject({ line: 3, column: 13 });
    } finally {
      setCurrentIntl(undefined);
    }
  });

  it('malformed SSML: SSML_INVALID as the server says it, caught before sending, its line and column kept', async () => {
    const store = makeStore();
    store
      .getState()
      .setText('<speak>\n<p>One.</p>\n<p><voice name="en_female_nova_default">Two.</p>\n</speak>');
    await store.getState().generate();
    const { jobError, jobErrorCode, jobErrorPlace, generating, job } = store.getState();
    expect(jobErrorCode).toBe('SSML_INVALID');
    expect(generating).toBe(false);
    expect(job).toBeNull();
    expect(ssmlErrorPlace(english(jobError)!)).toMatchObject({ line: 3 });
    expect(jobErrorPlace).toMatchObject({ line: 3, column: ssmlErrorPlace(english(jobError)!)!.column });
    // The server says the same of the same text.
    const server = await s
      .client()
      .submit({ input_text: store.getState().text, voice_code: 'en_female_emily_us' })
      .then(
        () => undefined,
        (e: Error) => e.message,
      );
    expect(server).toBe(english(jobError));
    // The next submit starts clean.
    store.getState().setText('<speak>Fine.</speak>');
    await store.getState().generate();
    expect(store.getState()).toMatchObject({ jobError: null, jobErrorCode: null });
  });

  it('text with nothing to speak is caught before it is sent, one message; the next Generate clears it', async () => {
    const store = makeStore();
    for (const text of ['…!?', '— —', '<speak><p>…!?</p></speak>']) {
      store.getState().setSsml(text.startsWith('<speak>'));
      store.getState().setText(text);
      await store.getState().generate();
      expect(store.getState()).toMatchObject({
        jobErrorCode: 'NOTHING_TO_SPEAK',
        jobError: NOTHING_TO_SPEAK_MESSAGE,
        job: null,
        generating: false,
      });
    }
    store.getState().setText('<speak>Fine.</speak>');
    await store.getState().generate();
    expect(store.getState()).toMatchObject({ jobError: null, jobErrorCode: null, jobErrorPlace: null });
    expect(store.getState().job?.status).toBe('SUCCESS');
  });

  it('Open from History brings back the text and settings, the draft kept for Undo, the audio as the result', async () => {
    const store = makeStore();
    store.getState().setOption('voice_code', 'en_female_elara_br');
    store.getState().setOption('speed_rate', 1.3);
    store.getState().setOption('pitch_rate', 0.8);
    store.getState().setOption('volume', 120);
    store.getState().setOption('audio_type', 'wav');
    store.getState().setText('The request we will come back to.');
    await store.getState().generate();
    const made = store.getState().job!;
    expect(made.status).toBe('SUCCESS');
    // Another draft, other settings.
    store.getState().setText('An unrelated draft.');
    store.getState().setOption('voice_code', NARRATOR);
    store.getState().resetProsody();
    store.getState().setOption('audio_type', 'mp3');
    store.getState().setView('history');
    await store.getState().openRequest(made.request_id, { restore: true });
    const state = store.getState();
    expect(state.view).toBe('studio');
    expect(state.text).toBe('The request we will come back to.');
    expect(state.options).toMatchObject({
      voice_code: 'en_female_elara_br',
      speed_rate: 1.3,
      pitch_rate: 0.8,
      volume: 120,
      audio_type: 'wav',
    });
    expect(state.job).toMatchObject({ request_id: made.request_id, status: 'SUCCESS' });
    expect(state.replacedDraft).toMatchObject({ text: 'An unrelated draft.', by: { kind: 'history' } });
    expect(state.results).toBeGreaterThan(0);
  });

  it('a draft that comes to start with <speak> switches SSML on; with SSML off it is not sent', async () => {
    const store = makeStore();
    store.getState().setText('Plain.');
    expect(store.getState().ssml).toBe(false);
    store.getState().setText('<speak>Marked up.</speak>');
    expect(store.getState().ssml).toBe(true);
    store.getState().setSsml(false);
    store.getState().setText('<speak>Marked up again.</speak>');
    expect(store.getState().ssml).toBe(false);
    await store.getState().generate();
    expect(english(store.getState().jobError)).toMatch(/starts with <speak>.*switch SSML on/);
  });

  it('Edit as SSML puts the dialogue’s SSML in the editor, SSML on, dialogue off', () => {
    const store = dialogueStore();
    store.getState().convertDialogueToSsml();
    const state = store.getState();
    expect(state.text).toMatch(/^<speak>\n<p>The keeper turned\.<\/p>/);
    expect(state.ssml).toBe(true);
    expect(state.dialogue.enabled).toBe(false);
  });

  it('settings survive a restart; stored nonsense is dropped', () => {
    const storage = memoryStorage();
    const store = dialogueStore(storage);
    store.getState().setParagraphVoice(1, 'en_female_elara_br');
    store.getState().setSsml(false);
    const again = makeStore(storage).getState();
    expect(again.dialogue).toEqual({
      enabled: true,
      character: CHARACTER,
      paragraphs: { 1: 'en_female_elara_br' },
    });
    expect(storage.map.get(SSML_KEY)).toBe('false');
    expect(
      sanitiseDialogue({
        enabled: true,
        character: 'Nobody',
        paragraphs: { 0: 'no body', x: CHARACTER } as never,
      }),
    ).toEqual({ enabled: true, character: null, paragraphs: {} });
    storage.map.set(DIALOGUE_KEY, '{not json');
    expect(makeStore(storage).getState().dialogue).toEqual({
      enabled: false,
      character: null,
      paragraphs: {},
    });
  });
});
