import { useId } from 'react';
import { FirstRunChoice } from './FirstRunChoice';
import { useFirstRunOffer } from './first-run-offer-state';
import { FirstRunProgress } from './FirstRunProgress';

/**
 * The first-run offer of natural voices: shown once, when the server's settings say it was
 * never answered (`first_run_voice_offer: pending`) and no natural voice is installed. The user
 * ticks languages (theirs and Vietnamese at first) and sees each pack's size, licence and
 * source; Download records the answer and starts the installs (the Voice library's, with its
 * progress events), Skip or Escape records the skip. While downloading the dialog shows each
 * pack's progress and may be closed: the downloads go on, the Voice library shows them.
 */
export function FirstRunOffer() {
  const id = useId();
  const offer = useFirstRunOffer();
  const { dialog, shown, skip, setStage } = offer;
  return (
    <dialog
      ref={dialog}
      className="confirm-dialog first-run-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-intro`}
      onCancel={(e) => {
        // Escape: skip while choosing; while downloading, close (the downloads go on).
        e.preventDefault();
        if (shown === 'choose') void skip();
        else setStage('closed');
      }}
    >
      {shown === 'choose' && <FirstRunChoice id={id} offer={offer} />}
      {shown === 'downloading' && <FirstRunProgress id={id} offer={offer} />}
    </dialog>
  );
}
