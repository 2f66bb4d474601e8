import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_FILTER_ALL } from '../../electron/shared/api';
import { createStudioStore } from '../../renderer/src/stores';
import { creditsProblem, MAX_CREDITS_ADDED } from '../../renderer/src/stores/api-view-slice';
import { createApiClient, SESSION_STORAGE_KEY } from '../../renderer/src/lib/api-client';
import { signInStudio } from '../fixtures/studio-session';
import { memoryStorage, startSignedIn, type SignedIn } from './helpers';

describe("API view slice (keys, the new key's text, credits) against the real server", () => {
  let s: SignedIn;
  beforeAll(async () => {
    s = await startSignedIn();
  });
  afterAll(async () => s?.t.close());

  const makeStore = () => createStudioStore({ client: s.client(), storage: memoryStorage() });

  it("holds nothing read until the view opens, then the studio key's credits", async () => {
    const store = makeStore();
    const state = () => store.getState();
    expect(state()).toMatchObject({
      apiKeys: [],
      apiUsage: null,
      apiCreatedKey: null,
      apiError: null,
      apiCreditsKey: KEY_FILTER_ALL,
      apiExampleLanguage: 'curl',
      apiCreditsAmount: '',
    });
    await state().checkSession();
    state().resetApiView();
    const studioKey = state().session!.key.id;
    expect(state().apiCreditsKey).toBe(studioKey);
    await state().loadApiView();
    expect(state().apiKeys.map((k) => k.id)).toContain(studioKey);
    expect(state().apiUsage?.balance).toBe(state().apiKeys.find((k) => k.id === studioKey)!.balance);
    expect(state().apiError).toBeNull();
  });

  it('creates a key whose text is shown once: a reset (the view opened again) forgets it', async () => {
    const store = makeStore();
    const state = () => store.getState();
    await state().checkSession();
    state().resetApiView();
    state().setApiNewKeyName('  slice key  ');
    state().setApiExampleLanguage('python-requests');
    await state().createApiKey();
    const created = state().apiCreatedKey!;
    expect(created.key).toMatch(/^nsk_/);
    expect(created.info.name).toBe('slice key');
    expect(state().apiNewKeyName).toBe('');
    expect(state().apiKeys.map((k) => k.id)).toContain(created.info.id);
    state().dismissCreatedKey();
    expect(state().apiCreatedKey).toBeNull();

    await state().createApiKey();
    expect(state().apiCreatedKey).not.toBeNull();
    state().resetApiView();
    expect(state().apiCreatedKey).toBeNull();
    expect(state().apiKeys).toEqual([]);
    expect(state().apiExampleLanguage).toBe('curl');

    // An answer that arrives after the reset is not shown.
    const late = state().createApiKey();
    state().resetApiView();
    await late;
    expect(state().apiCreatedKey).toBeNull();
    expect(state().apiKeys).toEqual([]);
  });

  it('rotates a signing secret (shown whole), toggles it, revokes a key, and reports a failure', async () => {
    const store = makeStore();
    const state = () => store.getState();
    await state().checkSession();
    state().resetApiView();
    state().setApiNewKeyName('to rotate');
    await state().createApiKey();
    const key = state().apiCreatedKey!.info;
    await state().rotateSigningSecret(key.id);
    expect([...state().apiShownSecrets]).toEqual([key.id]);
    const rotated = state().apiKeys.find((k) => k.id === key.id)!;
    expect(rotated.signing_secret).not.toBe(key.signing_secret);
    state().toggleSigningSecret(key.id);
    expect(state().apiShownSecrets.size).toBe(0);
    state().toggleSigningSecret(key.id);
    expect(state().apiShownSecrets.has(key.id)).toBe(true);

    await state().revokeApiKey(key.id);
    expect(state().apiKeys.find((k) => k.id === key.id)!.revoked_at).toBeTruthy();
    expect(state().apiError).toBeNull();

    await state().revokeApiKey('no-such-key');
    expect(state().apiError).toEqual(expect.any(String));
    await state().createApiKey();
    expect(state().apiError).toBeNull();
  });

  it('adds credits to a key: the ledger, the keys and the sidebar follow; typing forgets the answer', async () => {
    const store = makeStore();
    const state = () => store.getState();
    await state().checkSession();
    state().resetApiView();
    await state().loadApiView();
    const studioKey = state().session!.key.id;
    const before = state().session!.key.balance;
    state().chooseCreditsKey(studioKey);
    expect(state().apiCreditsTo).toBe(studioKey);
    state().editCreditsAmount('1500');
    await state().addCredits(studioKey, 1500);
    expect(state().apiCreditsAdding).toBe(false);
    expect(state().apiCreditsAmount).toBe('');
    expect(state().apiCreditsAdded).toMatchObject({ credits: 1500, balance: before + 1500 });
    expect(state().session!.key.balance).toBe(before + 1500);
    expect(state().apiUsage!.balance).toBe(before + 1500);
    expect(state().apiKeys.find((k) => k.id === studioKey)!.balance).toBe(before + 1500);
    state().editCreditsAmount('2');
    expect(state().apiCreditsAdded).toBeNull();

    state().setApiCreditsKey(KEY_FILTER_ALL);
    expect(state().apiCreditsKey).toBe(KEY_FILTER_ALL);
    await state().addCredits('no-such-key', 1);
    expect(state().apiCreditsError).toEqual(expect.any(String));
    expect(state().apiCreditsAdding).toBe(false);
  });

  it('checks the typed credits: whole, above 0, at most the server’s limit', () => {
    expect(creditsProblem('')).toBeNull();
    expect(creditsProblem('  ')).toBeNull();
    expect(creditsProblem('1500')).toBeNull();
    expect(creditsProblem(String(MAX_CREDITS_ADDED))).toBeNull();
    expect(creditsProblem('2.5')).toBe('not-whole');
    expect(creditsProblem('0')).toBe('not-whole');
    expect(creditsProblem('-3')).toBe('not-whole');
    expect(creditsProblem(String(MAX_CREDITS_ADDED + 1))).toBe('too-many');
  });

  // Last: it revokes the key this file's session acts with. (The notice of a key the studio made,
  // whose balance moves, is the sign-in-lasts e2e's; the move itself studio-key-revocation.test.ts's.)
  it("revoking the studio's key signs out and says why; the next sign-in clears the notice", async () => {
    const store = makeStore();
    const state = () => store.getState();
    await state().checkSession();
    const first = state().session!.key;
    // The test core's first key was not made by the studio: its balance stays on it.
    expect(first.studio).toBe(false);
    await state().loadApiView();
    await state().revokeApiKey(first.id);
    expect(state()).toMatchObject({
      sessionStatus: 'signed-out',
      sessionNotice: 'key-revoked',
      session: null,
    });
    expect(state().apiError).toBeNull();

    const again = await startSignedInAgain();
    await again.getState().checkSession();
    expect(again.getState().sessionStatus).toBe('signed-in');
    expect(again.getState().sessionNotice).toBeNull();
    expect(again.getState().session!.key.id).not.toBe(first.id);
    await again.getState().loadApiView();
    expect(again.getState().apiKeys.find((k) => k.id === first.id)).toMatchObject({ balance: first.balance });
  });

  /** A store signed in with the core's newest sign-in address, as a page opened with it is. */
  const startSignedInAgain = async () => {
    const session = await signInStudio(s.t.core.loginUrl);
    return createStudioStore({
      client: createApiClient({
        baseUrl: s.t.core.url,
        headers: { cookie: session.cookie },
        sessionStorage: memoryStorage({ [SESSION_STORAGE_KEY]: session.value }),
      }),
      storage: memoryStorage(),
    });
  };
});
