import { useCallback, useEffect, useState } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { SentenceCacheStats } from '../../../../electron/shared/sentence-cache';
import { errorMessage } from '../../lib/api-client';
import { useClient } from '../../stores';
import { BusyButton } from '../../components/BusyButton';

const megabytes = (intl: IntlShape, bytes: number) =>
  intl.formatMessage(
    { id: 'settings.cache.megabytes', defaultMessage: '{mb, number, ::.0} MB' },
    { mb: bytes / (1024 * 1024) },
  );

/** Share of engine calls answered from the cache since the engine started, or a dash before any. */
function hitRate(intl: IntlShape, { hits, misses }: SentenceCacheStats): string {
  const calls = hits + misses;
  return calls === 0
    ? '—'
    : intl.formatMessage(
        {
          id: 'settings.cache.hitRate',
          defaultMessage:
            '{rate, number, percent} ({hits, number} of {calls, plural, one {# sentence} other {# sentences}})',
        },
        { rate: hits / calls, hits, calls },
      );
}

/**
 * The engine's sentence cache: rendered sentences kept by content, so a text rendered again after
 * an edit synthesises only what changed. Shows its size and hit rate; Clear empties it.
 */
export function SentenceCachePanel() {
  const client = useClient();
  const intl = useIntl();
  const [stats, setStats] = useState<SentenceCacheStats | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [clearing, setClearing] = useState(false);

  const fail = useCallback((e: unknown) => setError(errorMessage(e)), []);

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
        before
          ? intl.formatMessage(
              {
                id: 'settings.cache.removed',
                defaultMessage: 'Removed {count, plural, one {# sentence} other {# sentences}} ({size}).',
              },
              { count: before.entries, size: megabytes(intl, before.bytes) },
            )
          : intl.formatMessage({ id: 'settings.cache.empty', defaultMessage: 'The cache is empty.' }),
      );
    } catch (e) {
      fail(e);
    } finally {
      setClearing(false);
    }
  };

  return (
    <div className="panel">
      <h2 style={{ marginBottom: 10 }}>
        <FormattedMessage id="settings.cache.title" defaultMessage="Sentence cache" />
      </h2>
      <p className="hint" style={{ marginBottom: 10 }}>
        <FormattedMessage
          id="settings.cache.intro"
          defaultMessage="Rendered sentences are kept by their text, voice and settings: rendering a chapter again after an edit synthesises only the sentences that changed, and the audio is the same as a full render."
        />
      </p>
      {stats && !stats.enabled && (
        <p className="hint">
          <FormattedMessage
            id="settings.cache.off"
            defaultMessage="Off: this server keeps no sentence cache."
          />
        </p>
      )}
      {stats?.enabled && (
        <table
          className="data"
          aria-label={intl.formatMessage({ id: 'settings.cache.title', defaultMessage: 'Sentence cache' })}
        >
          <tbody>
            <tr>
              <th scope="row">
                <FormattedMessage id="settings.cache.size" defaultMessage="Size" />
              </th>
              <td>
                <FormattedMessage
                  id="settings.cache.sizeOf"
                  defaultMessage="{used} of {limit}"
                  values={{ used: megabytes(intl, stats.bytes), limit: megabytes(intl, stats.limit_bytes) }}
                />
              </td>
            </tr>
            <tr>
              <th scope="row">
                <FormattedMessage id="settings.cache.sentences" defaultMessage="Sentences" />
              </th>
              <td>{intl.formatNumber(stats.entries)}</td>
            </tr>
            <tr>
              <th scope="row">
                <FormattedMessage id="settings.cache.hitRateLabel" defaultMessage="Hit rate since start" />
              </th>
              <td>{hitRate(intl, stats)}</td>
            </tr>
          </tbody>
        </table>
      )}
      <div className="row" style={{ gap: 12, alignItems: 'center', marginTop: 12 }}>
        <BusyButton onClick={() => void clear()} busy={clearing} unavailable={!stats?.enabled}>
          {clearing
            ? intl.formatMessage({ id: 'settings.cache.clearing', defaultMessage: 'Clearing…' })
            : intl.formatMessage({ id: 'settings.cache.clear', defaultMessage: 'Clear cache' })}
        </BusyButton>
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
