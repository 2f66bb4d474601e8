/**
 * The API view (ApiView): the keys with their signing secrets, a key created a moment ago (its
 * text shown once), the credits of one key or all and the form that adds some, the examples'
 * language. Reset each time the view opens and when it closes, so a new key's text does not
 * outlive the visit; an answer that arrives after a reset is dropped.
 */

import type { ApiKeyInfo, CreatedKey, Usage } from '../../../electron/shared/api';
import { KEY_FILTER_ALL } from '../../../electron/shared/api';
import type { ExampleLanguage } from '../features/api/examples';
import { errorMessage } from '../lib/api-client';
import type { SliceCreator } from './types';

/** The most credits one addition may give (the server's limit, jobs/keys.ts). */
export const MAX_CREDITS_ADDED = 1_000_000_000;

/** What is wrong with the typed credits, if anything (an empty field is not wrong, only unsent). */
export function creditsProblem(amount: string): 'not-whole' | 'too-many' | null {
  const trimmed = amount.trim();
  if (trimmed === '') return null;
  const credits = Number(amount);
  if (!/^\d+$/.test(trimmed) || credits < 1) return 'not-whole';
  return credits > MAX_CREDITS_ADDED ? 'too-many' : null;
}

/** The answer of the last addition of credits (the view says it in the interface's language). */
export interface CreditsAdded {
  credits: number;
  name: string;
  balance: number;
}

export interface ApiViewSlice {
  apiKeys: ApiKeyInfo[];
  /** The credits and ledger of `apiCreditsKey`; null until read. */
  apiUsage: Usage | null;
  /** The new key's name as typed. */
  apiNewKeyName: string;
  /** The key created a moment ago, its text shown once (until Done, or the view closes). */
  apiCreatedKey: CreatedKey | null;
  /** A failed read, creation, rotation or revocation. */
  apiError: string | null;
  /** The key whose credits are shown, or KEY_FILTER_ALL; the studio's own key when the view opens. */
  apiCreditsKey: string;
  /** Keys whose signing secret is shown whole. */
  apiShownSecrets: ReadonlySet<string>;
  apiExampleLanguage: ExampleLanguage;
  /** The key the Add credits form gives to, as chosen; undefined: the form's default. */
  apiCreditsTo: string | undefined;
  /** The credits as typed in the Add credits form. */
  apiCreditsAmount: string;
  apiCreditsAdding: boolean;
  /** Why the last addition failed (the server's sentence). */
  apiCreditsError: string | null;
  /** The last addition's answer, until the amount changes. */
  apiCreditsAdded: CreditsAdded | null;
  /** Forgets everything the view held (a created key's text included); the credits of the studio's key. */
  resetApiView(): void;
  /** Reads the keys and the credits of `apiCreditsKey`. */
  loadApiView(): Promise<void>;
  setApiNewKeyName(name: string): void;
  /** Creates a key named as typed (the server's default name when empty), then reads the keys again. */
  createApiKey(): Promise<void>;
  /** Forgets the created key's text (Done). */
  dismissCreatedKey(): void;
  /** Gives a key a new signing secret (asked for by the view) and shows it whole. */
  rotateSigningSecret(keyId: string): Promise<void>;
  toggleSigningSecret(keyId: string): void;
  /**
   * Revokes a key (asked for by the view); the sidebar's balance follows. The studio's own key
   * signs the studio out, and the sign-in screen says why (`sessionNotice`).
   */
  revokeApiKey(keyId: string): Promise<void>;
  /** Shows the credits of another key (or all); the view reads them again. */
  setApiCreditsKey(key: string): void;
  setApiExampleLanguage(language: ExampleLanguage): void;
  chooseCreditsKey(keyId: string): void;
  /** Changes the typed credits: the last addition's answer goes. */
  editCreditsAmount(amount: string): void;
  /** Adds whole credits (checked by the view) to a live key; the keys, ledger and sidebar follow. */
  addCredits(keyId: string, credits: number): Promise<void>;
}

type ApiViewState = Omit<
  ApiViewSlice,
  | 'resetApiView'
  | 'loadApiView'
  | 'setApiNewKeyName'
  | 'createApiKey'
  | 'dismissCreatedKey'
  | 'rotateSigningSecret'
  | 'toggleSigningSecret'
  | 'revokeApiKey'
  | 'setApiCreditsKey'
  | 'setApiExampleLanguage'
  | 'chooseCreditsKey'
  | 'editCreditsAmount'
  | 'addCredits'
>;

/** The view as it opens: nothing read yet, the credits of `creditsKey`. */
const initial = (creditsKey: string): ApiViewState => ({
  apiKeys: [],
  apiUsage: null,
  apiNewKeyName: '',
  apiCreatedKey: null,
  apiError: null,
  apiCreditsKey: creditsKey,
  apiShownSecrets: new Set(),
  apiExampleLanguage: 'curl',
  apiCreditsTo: undefined,
  apiCreditsAmount: '',
  apiCreditsAdding: false,
  apiCreditsError: null,
  apiCreditsAdded: null,
});

export const createApiViewSlice: SliceCreator<ApiViewSlice> =
  ({ client }) =>
  (set, get) => {
    /** Counts the resets: an answer to a call made before the last one is not shown. */
    let visit = 0;
    /** Sets `change` if no reset came since `mine` was taken. */
    const setIn = (mine: number, change: Partial<ApiViewState>) => {
      if (mine === visit) set(change);
    };
    const load = async (mine: number) => {
      try {
        const [keys, usage] = await Promise.all([client.keys(), client.usage(1, 10, get().apiCreditsKey)]);
        setIn(mine, { apiKeys: keys, apiUsage: usage });
      } catch (e) {
        setIn(mine, { apiError: errorMessage(e) });
      }
    };
    /** A change to the keys, then the view read again; a failure is shown as `apiError`. */
    const changeKeys = async (change: (mine: number) => Promise<void>) => {
      const mine = visit;
      set({ apiError: null });
      try {
        await change(mine);
        await load(mine);
      } catch (e) {
        setIn(mine, { apiError: errorMessage(e) });
      }
    };
    return {
      ...initial(KEY_FILTER_ALL),
      resetApiView() {
        visit++;
        set(initial(get().session?.key.id ?? KEY_FILTER_ALL));
      },
      loadApiView: () => load(visit),
      setApiNewKeyName: (name) => set({ apiNewKeyName: name }),
      createApiKey: () =>
        changeKeys(async (mine) => {
          const created = await client.createKey(get().apiNewKeyName.trim() || undefined);
          setIn(mine, { apiCreatedKey: created, apiNewKeyName: '' });
        }),
      dismissCreatedKey: () => set({ apiCreatedKey: null }),
      rotateSigningSecret: (keyId) =>
        changeKeys(async (mine) => {
          await client.rotateSigningSecret(keyId);
          setIn(mine, { apiShownSecrets: new Set(get().apiShownSecrets).add(keyId) });
        }),
      toggleSigningSecret(keyId) {
        const next = new Set(get().apiShownSecrets);
        if (!next.delete(keyId)) next.add(keyId);
        set({ apiShownSecrets: next });
      },
      async revokeApiKey(keyId) {
        if (keyId !== get().session?.key.id)
          return changeKeys(async () => {
            await client.revokeKey(keyId);
            await get().refreshSession();
          });
        // The studio's own key: its session ends with it, and the sign-in screen says why.
        set({ apiError: null });
        try {
          await client.revokeKey(keyId);
        } catch (e) {
          set({ apiError: errorMessage(e) });
          return;
        }
        get().signedOutByRevocation(get().apiKeys.find((k) => k.id === keyId)?.studio === true);
      },
      setApiCreditsKey: (key) => set({ apiCreditsKey: key }),
      setApiExampleLanguage: (language) => set({ apiExampleLanguage: language }),
      chooseCreditsKey: (keyId) => set({ apiCreditsTo: keyId }),
      editCreditsAmount: (amount) => set({ apiCreditsAmount: amount, apiCreditsAdded: null }),
      async addCredits(keyId, credits) {
        const mine = visit;
        set({ apiCreditsAdding: true, apiCreditsError: null, apiCreditsAdded: null });
        try {
          const key = await client.addCredits(keyId, credits);
          setIn(mine, {
            apiCreditsAdded: { credits, name: key.name, balance: key.balance },
            apiCreditsAmount: '',
          });
          await load(mine);
          await get().refreshSession();
        } catch (e) {
          setIn(mine, { apiCreditsError: errorMessage(e) });
        } finally {
          setIn(mine, { apiCreditsAdding: false });
        }
      },
    };
  };
