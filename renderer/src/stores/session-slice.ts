import type { SessionInfo, Voice } from '../../../electron/shared/api';
import { errorMessage, isSignedOut } from '../lib/api-client';
import type { SliceCreator } from './types';

export type SessionStatus = 'checking' | 'signed-in' | 'signed-out' | 'offline';

export interface SessionSlice {
  sessionStatus: SessionStatus;
  session: SessionInfo | null;
  /** Why the studio is offline, or why a sign-in was refused (e.g. an address used before). */
  sessionError: string | null;
  voices: Voice[];
  /**
   * Spends the sign-in token the page was opened with (once), asks the server who we are and
   * loads the voices; signed-out on 401 (the desktop window first signs itself in again).
   */
  checkSession(): Promise<void>;
  /** Re-reads the studio key's balance. */
  refreshSession(): Promise<void>;
  /** Call when any API call answered 401: the session ended (idle, signed out, server restarted). */
  markSignedOut(): void;
  /** Ends the session on the server; the page shows the sign-in screen. */
  signOut(): Promise<void>;
}

export const createSessionSlice: SliceCreator<SessionSlice> = ({
  client,
  signInToken,
  desktopSignInToken,
}) => {
  let token = signInToken;
  /** The sign-in with the page's token, started by the first check: its refusal, or null. */
  let signingIn: Promise<unknown> | undefined;
  return (set, get) => {
    const load = async () => {
      const [session, voices] = await Promise.all([client.session(), client.voices()]);
      set({ sessionStatus: 'signed-in', session, voices, sessionError: null });
    };
    return {
      sessionStatus: 'checking',
      session: null,
      sessionError: null,
      voices: [],
      async checkSession() {
        set({ sessionStatus: 'checking', sessionError: null });
        // The token is spent once, however many checks run (React runs effects twice in development).
        if (token !== undefined) {
          signingIn = client.signIn(token).then(
            () => null,
            (error: unknown) => error,
          );
          token = undefined;
        }
        const refused = await signingIn;
        try {
          // A session this browser already has still counts when the address was used before.
          await load();
        } catch (failure) {
          let error = failure;
          if (isSignedOut(error) && desktopSignInToken) {
            try {
              await client.signIn(await desktopSignInToken());
              await load();
              return;
            } catch (retry) {
              error = retry;
            }
          }
          if (!isSignedOut(error)) {
            set({ sessionStatus: 'offline', sessionError: errorMessage(error) });
            return;
          }
          // A refused sign-in address (wrong, or used before) says so on the sign-in screen.
          set({
            sessionStatus: 'signed-out',
            session: null,
            sessionError: refused ? errorMessage(refused) : null,
          });
        }
      },
      async refreshSession() {
        try {
          set({ session: await client.session() });
        } catch (error) {
          if (isSignedOut(error)) get().markSignedOut();
        }
      },
      markSignedOut() {
        set({ sessionStatus: 'signed-out', session: null });
        if (desktopSignInToken) void get().checkSession();
      },
      async signOut() {
        await client.signOut().catch(() => undefined);
        set({ sessionStatus: 'signed-out', session: null, sessionError: null });
      },
    };
  };
};
