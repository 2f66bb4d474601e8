import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ssmlErrorPlace } from '../../renderer/src/lib/dialogue-ssml';
import { countCharacters } from '../../renderer/src/lib/estimate';
import { createStudioStore } from '../../renderer/src/stores';
import { DIALOGUE_KEY, SSML_KEY, sanitiseDialogue } from '../../renderer/src/stores/compose-slice';
import { memoryStorage, startSignedIn, type SignedIn } from './helpers';

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
    expect(store.getState().jobError).toMatch(/SSML starts with <speak>/);
    const ssml = `<speak>Hello <break time="300ms"/> <voice name="${CHARACTER}">there.</voice></speak>`;
    store.getState().setText(ssml);
    await store.getState().generate();
    expect(store.getState().jobError).toBeNull();
    expect(store.getState().job).toMatchObject({ status: 'SUCCESS', input_text: ssml });
    // The compose box's estimate counts the spoken text, as the server bills it.
    expect(store.getState().job?.characters).toBe(countCharacters(ssml));
    expect(countCharacters(ssml)).toBeLessThan(ssml.length / 2);
  });

  it('malformed SSML: the server’s SSML_INVALID, its line and column kept for the editor', async () => {
    const store = makeStore();
    store
      .getState()
      .setText('<speak>\n<p>One.</p>\n<p><voice name="en_female_nova_default">Two.</p>\n</speak>');
    await store.getState().generate();
    const { jobError, jobErrorCode, generating } = store.getState();
    expect(jobErrorCode).toBe('SSML_INVALID');
    expect(generating).toBe(false);
    expect(ssmlErrorPlace(jobError!)).toMatchObject({ line: 3 });
    // The next submit starts clean.
    store.getState().setText('<speak>Fine.</speak>');
    await store.getState().generate();
    expect(store.getState()).toMatchObject({ jobError: null, jobErrorCode: null });
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
    expect(store.getState().jobError).toMatch(/starts with <speak>.*switch SSML on/);
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
