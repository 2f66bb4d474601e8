import type { SessionInfo, Voice } from '../../../electron/shared/api';
import { errorMessage, isSignedOut } from '../lib/api-client';
import type { SliceCreator } from './types';

export type SessionStatus = 'checking' | 'signed-in' | 'signed-out' | 'offline';

export interface SessionSlice {
  sessionStatus: SessionStatus;
  session: SessionInfo | null;
  sessionError: string | null;
  voices: Voice[];
  /** Asks the server who we are and loads the voices; signed-out on 401. */
  checkSession(): Promise<void>;
  /** Re-reads the studio key's balance. */
  refreshSession(): Promise<void>;
  /** Call when any API call answered 401: the session ended (e.g. the server restarted). */
  markSignedOut(): void;
}

export const createSessionSlice: SliceCreator<SessionSlice> =
  ({ client }) =>
  (set) => ({
    sessionStatus: 'checking',
    session: null,
    sessionError: null,
    voices: [],
    async checkSession() {
      set({ sessionStatus: 'checking', sessionError: null });
      try {
        const [session, voices] = await Promise.all([client.session(), client.voices()]);
        set({ sessionStatus: 'signed-in', session, voices });
      } catch (error) {
        if (isSignedOut(error)) set({ sessionStatus: 'signed-out', session: null });
        else set({ sessionStatus: 'offline', sessionError: errorMessage(error) });
      }
    },
    async refreshSession() {
      try {
        set({ session: await client.session() });
      } catch (error) {
        if (isSignedOut(error)) set({ sessionStatus: 'signed-out', session: null });
      }
    },
    markSignedOut: () => set({ sessionStatus: 'signed-out', session: null }),
  });
