import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { useStudio } from '../../stores';
import { studioUrl } from '../../lib/api-client';

const code = (chunks: ReactNode[]) => <code>{chunks}</code>;

/** Shown whenever there is no valid session: never a broken screen. */
export function SignIn() {
  const status = useStudio((s) => s.sessionStatus);
  const error = useStudio((s) => s.sessionError);
  const notice = useStudio((s) => s.sessionNotice);
  const checkSession = useStudio((s) => s.checkSession);
  if (status === 'checking') {
    return (
      <div className="signin" role="status">
        <p className="muted">
          <FormattedMessage id="auth.connecting" defaultMessage="Connecting to the studio…" />
        </p>
      </div>
    );
  }
  return (
    <main className="signin panel">
      {status === 'offline' ? (
        <>
          <h1>
            <FormattedMessage id="auth.offline.title" defaultMessage="The studio server is not answering" />
          </h1>
          <p>{error}</p>
          <p className="muted">
            <FormattedMessage
              id="auth.offline.restart"
              defaultMessage="Start it again with <code>npm start</code> or <code>npm run serve</code>, then retry."
              values={{ code }}
            />
          </p>
        </>
      ) : (
        <>
          <h1>
            <FormattedMessage id="auth.title" defaultMessage="Sign in to Narration Studio" />
          </h1>
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
          {notice && (
            <p className="notice" role="status">
              {notice === 'key-revoked-moves' ? (
                <FormattedMessage
                  id="auth.keyRevoked.moves"
                  defaultMessage="You revoked the studio's key, so the studio signed out. Sign in again: the studio gets a new key, and the credits left on the revoked one move to it."
                />
              ) : (
                <FormattedMessage
                  id="auth.keyRevoked"
                  defaultMessage="You revoked the key the studio worked with, so the studio signed out. Sign in again: the studio then works with another key."
                />
              )}
            </p>
          )}
          <p>
            <FormattedMessage
              id="auth.howTo"
              defaultMessage="This studio opens from the sign-in address printed in the terminal where the server runs (by <code>npm start</code> or <code>npm run serve</code>), which carries a sign-in token:"
              values={{ code }}
            />
          </p>
          <pre className="payload">
            <FormattedMessage
              id="auth.command"
              defaultMessage="open {origin}/?token=…"
              values={{ origin: studioUrl(document.baseURI) }}
            />
          </pre>
          <p className="muted">
            <FormattedMessage
              id="auth.onceEach"
              defaultMessage="Open that address in this browser. Each address works once: after it signs a browser in, the terminal shows the next one. You stay signed in when the server restarts; a session ends when you sign out, after 30 days without use, or when its API key is revoked."
            />
          </p>
        </>
      )}
      <button type="button" onClick={() => void checkSession()}>
        <FormattedMessage id="auth.retry" defaultMessage="Try again" />
      </button>
    </main>
  );
}
