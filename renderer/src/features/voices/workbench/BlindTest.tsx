/**
 * The blind A/B test: two voices speak the tester's sentence as "A" and "B" (which is which by
 * a coin), the tester votes, then the names are revealed; the tally is kept across reloads.
 */

import { useEffect, useId, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { VoiceSelect } from '../../../components/VoiceSelect';
import { useStudio } from '../../../stores';
import { assignBlind, ERRORS, type Vote } from './logic';
import { BlindRound, type Round } from './BlindRound';
import { BlindTally } from './BlindTally';
import { useMeasure, useVoiceFacts, type Result } from './voice-results';
import { BusyButton } from '../../../components/BusyButton';

/** The blind A/B test: two voices chosen, a round started, voted on and revealed; the tally below. */
export function BlindTest({ sentence, disabled }: { sentence: string; disabled: boolean }) {
  const id = useId();
  const intl = useIntl();
  const queue = useStudio((s) => s.workbench.queue);
  const addBlindResult = useStudio((s) => s.addBlindResult);
  const facts = useVoiceFacts();
  const measure = useMeasure();
  const [first, setFirst] = useState(queue[0] ?? '');
  const [second, setSecond] = useState(queue[1] ?? '');
  const [round, setRound] = useState<Round | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const abort = useRef<AbortController | null>(null);
  const roundUrls = useRef<string[]>([]);
  const startButton = useRef<HTMLButtonElement>(null);

  useEffect(
    () => () => {
      abort.current?.abort();
      for (const url of roundUrls.current) URL.revokeObjectURL(url);
    },
    [],
  );

  const start = async () => {
    setError('');
    let pair: { a: string; b: string };
    try {
      pair = assignBlind(first, second, Math.random());
    } catch {
      setError(intl.formatMessage(ERRORS.sameVoice));
      return;
    }
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setBusy(true);
    for (const url of roundUrls.current.splice(0)) URL.revokeObjectURL(url);
    setRound(null);
    try {
      const a = await measure(pair.a, sentence.trim(), controller.signal);
      const b = await measure(pair.b, sentence.trim(), controller.signal);
      for (const r of [a, b]) if (r.status === 'done') roundUrls.current.push(r.url);
      if (a.status === 'failed' || b.status === 'failed') {
        // The failing side is named: hiding it would leave the tester nothing to act on.
        const failed = a.status === 'failed' ? a : (b as Extract<Result, { status: 'failed' }>);
        setError(
          intl.formatMessage(
            { id: 'voices.workbench.blind.failed', defaultMessage: '{name} could not speak: {error}' },
            { name: facts(failed.code).name, error: failed.error },
          ),
        );
        return;
      }
      if (a.status === 'done' && b.status === 'done') setRound({ a, b, vote: null });
    } catch {
      // Aborted by a new round or by leaving the view.
    } finally {
      if (abort.current === controller) setBusy(false);
    }
  };

  const vote = (choice: Vote) => {
    if (!round || round.vote) return;
    addBlindResult({ a: round.a.code, b: round.b.code, vote: choice });
    setRound({ ...round, vote: choice });
    // The vote buttons give way to the reveal: the focus goes to the next round's button.
    startButton.current?.focus();
  };

  const chooseVoice = intl.formatMessage({
    id: 'voices.workbench.blind.choose',
    defaultMessage: 'Choose a voice',
  });

  return (
    <section className="blind-test" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>
        <FormattedMessage id="voices.workbench.blind.title" defaultMessage="Blind A/B test" />
      </h3>
      <p className="muted small">
        <FormattedMessage
          id="voices.workbench.blind.intro"
          defaultMessage="Two voices speak your sentence as A and B in a random order; listen, vote, then see which was which."
        />
      </p>
      <div className="row blind-pick">
        <div className="field">
          <label htmlFor={`${id}-first`}>
            <FormattedMessage id="voices.workbench.blind.first" defaultMessage="First voice" />
          </label>
          <VoiceSelect id={`${id}-first`} value={first} onChange={setFirst} emptyLabel={chooseVoice} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-second`}>
            <FormattedMessage id="voices.workbench.blind.second" defaultMessage="Second voice" />
          </label>
          <VoiceSelect id={`${id}-second`} value={second} onChange={setSecond} emptyLabel={chooseVoice} />
        </div>
        <BusyButton
          ref={startButton}
          className="primary"
          onClick={() => void start()}
          busy={busy}
          unavailable={disabled || !first || !second || first === second}
        >
          {busy ? (
            <FormattedMessage id="voices.workbench.blind.preparing" defaultMessage="Preparing…" />
          ) : round ? (
            <FormattedMessage id="voices.workbench.blind.newRound" defaultMessage="New round" />
          ) : (
            <FormattedMessage id="voices.workbench.blind.start" defaultMessage="Start a blind round" />
          )}
        </BusyButton>
      </div>
      {first && first === second && (
        <p className="muted small">
          <FormattedMessage
            id="voices.workbench.blind.different"
            defaultMessage="Choose two different voices."
          />
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {round && <BlindRound round={round} onVote={vote} />}
      <BlindTally />
    </section>
  );
}
