import { useStudio } from '../../stores';

/** Shown whenever there is no valid session: never a broken screen. */
export function SignIn() {
  const status = useStudio((s) => s.sessionStatus);
  const error = useStudio((s) => s.sessionError);
  const checkSession = useStudio((s) => s.checkSession);
  if (status === 'checking') {
    return (
      <div className="signin" role="status">
        <p className="muted">Connecting to the studio…</p>
      </div>
    );
  }
  return (
    <main className="signin panel">
      {status === 'offline' ? (
        <>
          <h1>The studio server is not answering</h1>
          <p>{error}</p>
          <p className="muted">
            Start it again with <code>npm start</code> or <code>npm run serve</code>, then retry.
          </p>
        </>
      ) : (
        <>
          <h1>Sign in to Narration Studio</h1>
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
          <p>
            This studio opens from the sign-in address printed in the terminal where the server runs (by{' '}
            <code>npm start</code> or <code>npm run serve</code>), which carries a sign-in token:
          </p>
          <pre className="payload">open {window.location.origin}/?token=…</pre>
          <p className="muted">
            Open that address in this browser. Each address works once: after it signs a browser in, the
            terminal shows the next one. You stay signed in when the server restarts; a session ends when you
            sign out, after 30 days without use, or when its API key is revoked.
          </p>
        </>
      )}
      <button type="button" onClick={() => void checkSession()}>
        Try again
      </button>
    </main>
  );
}
