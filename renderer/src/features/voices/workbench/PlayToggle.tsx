import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { errorMessage } from '../../../lib/api-client';
import type { ResultWave } from './useResultWave';

/** Play/Stop for one result's audio, named after what it plays; says why when it cannot play. */
export function PlayToggle({ wave, label }: { wave: ResultWave; label: string }) {
  const intl = useIntl();
  const [playError, setPlayError] = useState('');
  return (
    <>
      <button
        type="button"
        aria-label={
          wave.playing
            ? intl.formatMessage(
                { id: 'voices.workbench.stopLabel', defaultMessage: 'Stop {label}' },
                { label },
              )
            : intl.formatMessage(
                { id: 'voices.workbench.playLabel', defaultMessage: 'Play {label}' },
                { label },
              )
        }
        onClick={() => {
          setPlayError('');
          if (wave.playing) wave.stop();
          else
            void wave
              .play()
              .catch((e: unknown) =>
                setPlayError(
                  intl.formatMessage(
                    { id: 'voices.workbench.cannotPlay', defaultMessage: 'It could not be played: {error}' },
                    { error: errorMessage(e) },
                  ),
                ),
              );
        }}
      >
        {wave.playing ? (
          <FormattedMessage id="common.stop" defaultMessage="Stop" />
        ) : (
          <FormattedMessage id="common.play" defaultMessage="Play" />
        )}
      </button>
      {playError && <p className="error">{playError}</p>}
    </>
  );
}
