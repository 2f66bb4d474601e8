import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { ProgressBar } from '../../components/ProgressBar';
import { formatBytes } from '../../lib/format';
import { useStudio } from '../../stores';
import type { FirstRunOfferState } from './first-run-offer-state';

const m = defineMessages<{
  progressLabel: { id: string };
  downloadingBytes: { done: string; total: string };
}>({
  progressLabel: { id: 'firstRun.progressLabel', defaultMessage: 'Download progress of {id}' },
  downloadingBytes: { id: 'firstRun.downloadingBytes', defaultMessage: 'Downloading… {done} of {total}' },
});

/** The downloads started: each pack's progress, what failed, the Voice library, Done or Continue in the background. */
export function FirstRunProgress({ id, offer }: { id: string; offer: FirstRunOfferState }) {
  const setView = useStudio((s) => s.setView);
  const { setStage, started, finished, anyFailed, failure } = offer;
  return (
    <>
      <h2 id={`${id}-title`}>
        {finished ? (
          anyFailed ? (
            <FormattedMessage id="firstRun.someFailed" defaultMessage="Some voices were not downloaded" />
          ) : (
            <FormattedMessage id="firstRun.installed" defaultMessage="Natural voices installed" />
          )
        ) : (
          <FormattedMessage id="firstRun.downloading" defaultMessage="Downloading natural voices" />
        )}
      </h2>
      <p id={`${id}-intro`}>
        {finished ? (
          anyFailed ? (
            <FormattedMessage
              id="firstRun.someFailedIntro"
              defaultMessage="The voices below were not installed."
            />
          ) : (
            <FormattedMessage
              id="firstRun.installedIntro"
              defaultMessage="The voices of these languages now speak with their natural voice."
            />
          )
        ) : (
          <FormattedMessage
            id="firstRun.downloadingIntro"
            defaultMessage="You can close this and keep working: the downloads go on, and the Voice library shows them."
          />
        )}
      </p>
      <ul className="first-run-progress">
        {started.map((packId) => (
          <PackProgress key={packId} packId={packId} offer={offer} />
        ))}
      </ul>
      {anyFailed && (
        <p className="error" role="alert">
          {failure ?? <FormattedMessage id="firstRun.failed" defaultMessage="The download failed." />}
        </p>
      )}
      <div className="row confirm-actions">
        {anyFailed && (
          <button
            type="button"
            onClick={() => {
              setStage('closed');
              setView('library');
            }}
          >
            <FormattedMessage id="firstRun.openLibrary" defaultMessage="Open the Voice library" />
          </button>
        )}
        <button type="button" className="primary" onClick={() => setStage('closed')}>
          {finished ? (
            <FormattedMessage id="firstRun.done" defaultMessage="Done" />
          ) : (
            <FormattedMessage id="firstRun.background" defaultMessage="Continue in the background" />
          )}
        </button>
      </div>
    </>
  );
}

/** One pack's download: its state, its bar and bytes while it runs. */
function PackProgress({ packId, offer }: { packId: string; offer: FirstRunOfferState }) {
  const intl = useIntl();
  const { state, percent, pack } = offer.progressOf(packId);
  return (
    <li>
      <div className="row">
        <span className="pack-name">{packId}</span>
        <span className="spacer" />
        <span className={`badge ${state === 'installed' ? 'ok' : state === 'failed' ? 'bad' : ''}`}>
          {state === 'installed' ? (
            <FormattedMessage id="firstRun.state.installed" defaultMessage="installed" />
          ) : state === 'failed' ? (
            <FormattedMessage id="firstRun.state.failed" defaultMessage="not downloaded" />
          ) : state === 'starting' ? (
            <FormattedMessage id="firstRun.state.starting" defaultMessage="starting" />
          ) : (
            <>{Math.round(percent)} %</>
          )}
        </span>
      </div>
      {(state === 'installing' || state === 'starting') && (
        <>
          <ProgressBar
            label={intl.formatMessage(m.progressLabel, { id: packId })}
            value={percent}
            minWidth={3}
          />
          <p className="hint small">
            {pack?.progress?.phase === 'install' ? (
              <FormattedMessage id="firstRun.installing" defaultMessage="Installing…" />
            ) : (
              intl.formatMessage(m.downloadingBytes, {
                done: formatBytes(pack?.progress?.bytes ?? 0),
                total: formatBytes(pack?.progress?.total ?? pack?.size ?? 0),
              })
            )}
          </p>
        </>
      )}
    </li>
  );
}
