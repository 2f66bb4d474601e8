import { useState } from 'react';
import { errorMessage } from '../../../lib/api-client';
import type { ResultWave } from './useResultWave';

/** Play/Stop for one result's audio, named after what it plays; says why when it cannot play. */
export function PlayToggle({ wave, label }: { wave: ResultWave; label: string }) {
  const [playError, setPlayError] = useState('');
  return (
    <>
      <button
        type="button"
        aria-label={`${wave.playing ? 'Stop' : 'Play'} ${label}`}
        onClick={() => {
          setPlayError('');
          if (wave.playing) wave.stop();
          else
            void wave
              .play()
              .catch((e: unknown) => setPlayError(`It could not be played: ${errorMessage(e)}`));
        }}
      >
        {wave.playing ? 'Stop' : 'Play'}
      </button>
      {playError && <p className="error">{playError}</p>}
    </>
  );
}
