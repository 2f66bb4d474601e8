import type { SessionInfo, Voice } from '../../../electron/shared/api';
import { errorMessage, isSignedOut } from '../lib/api-client';
import type { SliceCreator } from './types';

export type SessionStatus = 'checking' | 'signed-in' | 'signed-out' | 'offline';

export interface SessionSlice {
  sessionStatus: SessionStatus;
  session: SessionInfo | null;
  /** Why the studio is offline, or why a sign-in was refused (e.g. an address used before). */
  sessionError: string | null;
  /**
   * Why the sign-in screen is shown, when the studio itself ended the session: its key was
   * revoked on the API page, `key-revoked-moves` when that key's balance moves to the studio's
   * next key (a key the studio made), else `key-revoked`. Cleared by the next sign-in.
   */
  sessionNotice: 'key-revoked' | 'key-revoked-moves' | null;
  voices: Voice[];
  /**
   * Spends the sign-in token the page was opened with (once), asks the server who we are and
   * loads the voices; signed-out on 401 (the desktop window first signs itself in again).
   */
  checkSession(): Promise<void>;
  /** Re-reads the studio key's balance. */
  refreshSession(): Promise<void>;
  /**
   * The session ended (idle, signed out, server restarted): called when the API client reports a
   * 401 (`onSignedOut` in api-client.ts), whatever call found it.
   */
  markSignedOut(): void;
  /** Ends the session on the server; the page shows the sign-in screen. */
  signOut(): Promise<void>;
  /** The studio's key was revoked here: the sign-in screen says so (its session ended with the key). */
  signedOutByRevocation(balanceMoves: boolean): void;
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
    /** Session checks under way: a 401 inside one is the check's to judge (it may sign in again). */
    let checking = 0;
    // The client notices a session that ended, whatever call found it (api-client.ts).
    client.onSignedOut(() => {
      if (checking === 0) get().markSignedOut();
    });
    const load = async () => {
      const [session, voices] = await Promise.all([client.session(), client.voices()]);
      set({ sessionStatus: 'signed-in', session, voices, sessionError: null, sessionNotice: null });
    };
    /**
     * Spends the page's token (once), asks the server who we are and loads the voices; signed-out
     * on 401 (the desktop window first signs itself in again).
     */
    const check = async () => {
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
    };
    return {
      sessionStatus: 'checking',
      session: null,
      sessionError: null,
      sessionNotice: null,
      voices: [],
      async checkSession() {
        checking++;
        try {
          await check();
        } finally {
          checking--;
        }
      },
      async refreshSession() {
        try {
          set({ session: await client.session() });
        } catch {
          // A 401 is the client's to report (onSignedOut above); the balance waits for the next read.
        }
      },
      markSignedOut() {
        set({ sessionStatus: 'signed-out', session: null });
        if (desktopSignInToken) void get().checkSession();
      },
      async signOut() {
        await client.signOut().catch(() => undefined);
        set({ sessionStatus: 'signed-out', session: null, sessionError: null, sessionNotice: null });
      },
      signedOutByRevocation(balanceMoves) {
        set({ sessionNotice: balanceMoves ? 'key-revoked-moves' : 'key-revoked' });
        get().markSignedOut();
      },
    };
  };
};
