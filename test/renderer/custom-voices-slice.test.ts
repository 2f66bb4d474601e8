/**
 * The studio's custom voices: the form's rules (code as typed, the request body of a draft), the
 * voice-code helpers every picker uses, and the slice against a real core over HTTP (create,
 * a code taken, edit, audition, delete; the studio's voice falls back when its voice is gone).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomVoice } from '../../electron/shared/custom-voices';
import { ApiError } from '../../renderer/src/lib/api-client';
import {
  blendShares,
  catalogueVoiceOf,
  describeBase,
  mayBeVoiceCode,
  voiceNameOf,
} from '../../renderer/src/lib/voice-codes';
import { codeProblem, draftOf, inputOf } from '../../renderer/src/features/voices/custom-voice-draft';
import { createStudioStore } from '../../renderer/src/stores';
import { DEFAULT_VOICE, FIRST_VOICES, sanitiseOptions } from '../../renderer/src/stores/options-slice';
import { wavSamples, rmsOf } from '../fixtures/audio-analysis';
import { memoryStorage, startSignedIn, type SignedIn } from './helpers';

const BASE = 'vi_female_thuytrang_mb';

describe('custom voice form rules', () => {
  it('checks a code as typed: pattern, catalogue codes, codes already taken', () => {
    expect(codeProblem('', [])).toMatch(/Give the voice a code/);
    expect(codeProblem('Co Lan', [])).toMatch(/3 to 64 characters/);
    expect(codeProblem('co', [])).toMatch(/3 to 64 characters/);
    expect(codeProblem('1abc', [])).toMatch(/starting with a letter/);
    expect(codeProblem(BASE, [])).toBe(`${BASE} is a catalogue voice's code: choose another.`);
    expect(codeProblem('co_lan', ['co_lan'])).toMatch(/already have a voice with the code co_lan/);
    expect(codeProblem('co_lan', ['co_mai'])).toBeNull();
  });

  it('builds the request body of each base kind, or names what stops it', () => {
    const draft = { ...draftOf(undefined, BASE), name: ' Cô Lan ', code: 'co_lan', speed: 1.2, pitch: 1.1 };
    expect(inputOf({ ...draft, name: '' })).toEqual({ problem: 'Give the voice a name.' });
    expect(
      inputOf({ ...draft, lexicon: [{ match: 'NXB', kind: 'respell', replacement: 'nhà xuất bản' }] }),
    ).toEqual({
      input: {
        code: 'co_lan',
        name: 'Cô Lan',
        base: { kind: 'code', voice_code: BASE },
        prosody: { speed: 1.2, pitch: 1.1, volume: 100 },
        lexicon: [{ match: 'NXB', kind: 'respell', replacement: 'nhà xuất bản' }],
        note: '',
      },
    });
    // Empty rows are left out; a half-filled one is named.
    const rows = [
      { match: '', kind: 'respell' as const, replacement: '' },
      { match: 'TP', kind: 'ipa' as const, replacement: '' },
    ];
    expect(inputOf({ ...draft, lexicon: rows })).toEqual({
      problem: 'Pronunciation 1 needs both the word and what to say.',
    });
    expect(inputOf({ ...draft, kind: 'pack' })).toEqual({
      problem: 'Choose an installed voice pack, or another base.',
    });
    const pack = inputOf({ ...draft, kind: 'pack', packId: 'vi_VN-vais1000-medium', fallback: BASE });
    expect('input' in pack && pack.input.base).toEqual({ kind: 'pack', pack_id: 'vi_VN-vais1000-medium' });
    expect('input' in pack && pack.input.voice_code).toBe(BASE);
    expect(inputOf({ ...draft, kind: 'kokoro_blend' })).toEqual({
      problem: 'Add at least one Kokoro voice to the blend.',
    });
    expect(inputOf({ ...draft, kind: 'kokoro_blend', parts: [{ voice: 'af_heart', weight: '0' }] })).toEqual({
      problem: 'The weight of blend part 1 must be above 0 and at most 100.',
    });
    const blend = inputOf({
      ...draft,
      kind: 'kokoro_blend',
      fallback: 'en_female_emily_us',
      parts: [
        { voice: 'af_heart', weight: '3' },
        { voice: 'am_adam', weight: '1' },
      ],
    });
    expect('input' in blend && blend.input.base).toEqual({
      kind: 'kokoro_blend',
      parts: [
        { voice: 'af_heart', weight: 3 },
        { voice: 'am_adam', weight: 1 },
      ],
    });
  });

  it('shows a blend as normalised shares, and a base in a few words', () => {
    expect(blendShares([3, 1])).toEqual([75, 25]);
    expect(blendShares([2, Number.NaN, 2])).toEqual([50, 0, 50]);
    expect(blendShares([0])).toEqual([0]);
    expect(
      describeBase({
        kind: 'kokoro_blend',
        parts: [
          { voice: 'af_heart', weight: 2 },
          { voice: 'af_sky', weight: 1 },
        ],
      }),
    ).toBe('Kokoro blend af_heart 67 % + af_sky 33 %');
    expect(describeBase({ kind: 'pack', pack_id: 'p', speaker: 'VIVOSSPK01' })).toBe('p · VIVOSSPK01');
  });

  it('keeps a custom code as the studio voice; prices it as its catalogue voice', () => {
    expect(mayBeVoiceCode('co_lan')).toBe(true);
    expect(mayBeVoiceCode('Not A Code')).toBe(false);
    expect(sanitiseOptions({ voice_code: 'co_lan' }).voice_code).toBe('co_lan');
    expect(sanitiseOptions({ voice_code: 'X' }).voice_code).toBe(DEFAULT_VOICE);
    const lan = { code: 'co_lan', name: 'Cô Lan', voice_code: BASE } as CustomVoice;
    expect(catalogueVoiceOf('co_lan', [lan])?.voice_code).toBe(BASE);
    expect(voiceNameOf('co_lan', [lan])).toBe('Cô Lan');
    expect(voiceNameOf('co_mai', [lan])).toBe('co_mai');
  });
});

describe('custom voices slice (real core)', () => {
  let s: SignedIn;
  beforeAll(async () => {
    s = await startSignedIn();
  });
  afterAll(async () => s?.t.close());

  it('drops stored codes of voices that are gone; creates, refuses a taken code, edits, auditions and deletes', async () => {
    // Codes shaped as custom voices' are kept from storage until the list says they are gone.
    const storage = memoryStorage();
    const store = createStudioStore({ client: s.client(), storage });
    store.getState().setOption('voice_code', 'co_gone');
    store.getState().setCharacterVoice('co_gone');
    store.getState().setParagraphVoice(2, 'co_gone');
    store.getState().updateExportDraft({ voice: 'co_gone' });
    expect(createStudioStore({ client: s.client(), storage }).getState().options.voice_code).toBe('co_gone');
    await store.getState().loadCustomVoices();
    expect(store.getState().options.voice_code).toBe(DEFAULT_VOICE);
    expect(store.getState().dialogue).toMatchObject({ character: null, paragraphs: {} });
    expect(store.getState().exportDraft.voice).toBeNull();
    expect(store.getState()).toMatchObject({
      customVoices: [],
      customVoicesLoaded: true,
      customVoicesError: null,
    });

    const input = {
      code: 'co_lan',
      name: 'Cô Lan',
      base: { kind: 'code' as const, voice_code: BASE },
      prosody: { speed: 1.2, pitch: 1.1, volume: 100 },
      lexicon: [{ match: 'NXB', kind: 'respell' as const, replacement: 'nhà xuất bản' }],
    };
    const created = await store.getState().saveCustomVoice(input);
    expect(created).toMatchObject({ code: 'co_lan', language: 'vi', voice_code: BASE });
    expect(store.getState().customVoices.map((v) => v.code)).toEqual(['co_lan']);

    const taken = await store
      .getState()
      .saveCustomVoice({ ...input, name: 'Again' })
      .catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(ApiError);
    expect((taken as ApiError).status).toBe(409);
    expect((taken as ApiError).code).toBe('CUSTOM_VOICE_CONFLICT');

    await store.getState().saveCustomVoice({ ...input, name: 'Cô Lan chậm' }, 'co_lan');
    expect(store.getState().customVoices[0]!.name).toBe('Cô Lan chậm');

    const wav = wavSamples(
      new Uint8Array(await (await s.client().auditionCustomVoice('co_lan')).arrayBuffer()),
    );
    expect(rmsOf(wav.pcm)).toBeGreaterThan(300);

    store.getState().setOption('voice_code', 'co_lan');
    expect(store.getState().options.voice_code).toBe('co_lan');
    expect(await store.getState().deleteCustomVoice('co_lan')).toBe(true);
    expect(store.getState().customVoices).toEqual([]);
    expect(store.getState().options.voice_code).toBe(DEFAULT_VOICE);

    expect(await store.getState().deleteCustomVoice('co_lan')).toBe(false);
    expect(store.getState().customVoicesError).toMatch(/co_lan/);
  });

  it('in a Vietnamese studio, the studio voice whose custom voice is deleted falls back to Lê Hoàng, not Emily', async () => {
    const storage = memoryStorage();
    const store = createStudioStore({ client: s.client(), storage, languages: ['vi-VN', 'en-US'] });
    const input = {
      code: 'co_hoa',
      name: 'Cô Hoa',
      base: { kind: 'code' as const, voice_code: BASE },
    };
    await store.getState().saveCustomVoice(input);
    store.getState().setOption('voice_code', 'co_hoa');
    // Deleted here: the studio moves to the interface language's first voice.
    expect(await store.getState().deleteCustomVoice('co_hoa')).toBe(true);
    expect(store.getState().options.voice_code).toBe(FIRST_VOICES.vi);
    expect(FIRST_VOICES.vi).not.toBe(DEFAULT_VOICE);

    // Deleted elsewhere (another window, the API): found gone when the list is read again.
    await store.getState().saveCustomVoice(input);
    store.getState().setOption('voice_code', 'co_hoa');
    const other = createStudioStore({ client: s.client(), storage: memoryStorage(), languages: ['vi-VN'] });
    expect(await other.getState().deleteCustomVoice('co_hoa')).toBe(true);
    const reopened = createStudioStore({ client: s.client(), storage, languages: ['vi-VN'] });
    expect(reopened.getState().options.voice_code).toBe('co_hoa');
    await reopened.getState().loadCustomVoices();
    expect(reopened.getState().options.voice_code).toBe(FIRST_VOICES.vi);
  });
});
