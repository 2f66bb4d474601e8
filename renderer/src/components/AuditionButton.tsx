import { FormattedMessage, useIntl } from 'react-intl';
import type { Audition } from '../lib/useAudition';

/**
 * Play / Stop of one audition (see useAudition): "…" from the click until the sound starts
 * (busy, and a click stops it), "Stop" while it plays. `label` completes "Play …" / "Stop …".
 */
export function AuditionButton({
  audition,
  id,
  label,
  onToggle,
}: {
  audition: Audition;
  /** The key this button's audition is played under. */
  id: string;
  label: string;
  onToggle: () => void;
}) {
  const intl = useIntl();
  const phase = audition.active === id ? audition.phase : null;
  return (
    <button
      type="button"
      className="icon"
      aria-label={
        phase
          ? intl.formatMessage(
              { id: 'components.audition.stopLabel', defaultMessage: 'Stop {label}' },
              { label },
            )
          : intl.formatMessage(
              { id: 'components.audition.playLabel', defaultMessage: 'Play {label}' },
              { label },
            )
      }
      aria-busy={phase === 'loading'}
      onClick={onToggle}
    >
      {phase === 'loading' ? (
        '…'
      ) : phase === 'playing' ? (
        <FormattedMessage id="common.stop" defaultMessage="Stop" />
      ) : (
        <FormattedMessage id="common.play" defaultMessage="Play" />
      )}
    </button>
  );
}
