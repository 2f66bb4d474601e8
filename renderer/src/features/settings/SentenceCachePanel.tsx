import { useCallback, useEffect, useState } from 'react';
import type { SentenceCacheStats } from '../../../../electron/shared/sentence-cache';
import { errorMessage, isSignedOut } from '../../lib/api-client';
import { useClient, useStudio } from '../../stores';
import { formatNumber } from '../../lib/format';

const megabytes = (bytes: number) => `${formatNumber(bytes / (1024 * 1024), { digits: 1 })} MB`;

/** Share of engine calls answered from the cache since the engine started, or a dash before any. */
function hitRate({ hits, misses }: SentenceCacheStats): string {
  const calls = hits + misses;
  return calls === 0 ? '—' : `${Math.round((hits / calls) * 100)} % (${hits} of ${calls} sentences)`;
}

/**
 * The engine's sentence cache: rendered sentences kept by content, so a text rendered again after
 * an edit synthesises only what changed. Shows its size and hit rate; Clear empties it.
 */
export function SentenceCachePanel() {
  const client = useClient();
  const markSignedOut = useStudio((s) => s.markSignedOut);
  const [stats, setStats] = useState<SentenceCacheStats | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [clearing, setClearing] = useState(false);

  const fail = useCallback(
    (e: unknown) => {
      if (isSignedOut(e)) markSignedOut();
      setError(errorMessage(e));
    },
    [markSignedOut],
  );

  useEffect(() => {
    let live = true;
    client.sentenceCache().then(
      (s) => live && setStats(s),
      (e: unknown) => live && fail(e),
    );
    return () => {
      live = false;
    };
  }, [client, fail]);

  const clear = async () => {
    setError(null);
    setNotice(null);
    setClearing(true);
    try {
      const before = stats;
      const after = await client.clearSentenceCache();
      setStats(after);
      setNotice(
        before ? `Removed ${before.entries} sentences (${megabytes(before.bytes)}).` : 'The cache is empty.',
      );
    } catch (e) {
      fail(e);
    } finally {
      setClearing(false);
    }
  };

  return (
    <div className="panel">
      <h2 style={{ marginBottom: 10 }}>Sentence cache</h2>
      <p className="hint" style={{ marginBottom: 10 }}>
        Rendered sentences are kept by their text, voice and settings: rendering a chapter again after an edit
        synthesises only the sentences that changed, and the audio is the same as a full render.
      </p>
      {stats && !stats.enabled && <p className="hint">Off: this server keeps no sentence cache.</p>}
      {stats?.enabled && (
        <table className="data" aria-label="Sentence cache">
          <tbody>
            <tr>
              <th scope="row">Size</th>
              <td>
                {megabytes(stats.bytes)} of {megabytes(stats.limit_bytes)}
              </td>
            </tr>
            <tr>
              <th scope="row">Sentences</th>
              <td>{stats.entries}</td>
            </tr>
            <tr>
              <th scope="row">Hit rate since start</th>
              <td>{hitRate(stats)}</td>
            </tr>
          </tbody>
        </table>
      )}
      <div className="row" style={{ gap: 12, alignItems: 'center', marginTop: 12 }}>
        <button type="button" onClick={() => void clear()} disabled={!stats?.enabled || clearing}>
          {clearing ? 'Clearing…' : 'Clear cache'}
        </button>
      </div>
      <div role="status" aria-live="polite">
        {notice && (
          <p className="notice" style={{ marginTop: 10 }}>
            {notice}
          </p>
        )}
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
