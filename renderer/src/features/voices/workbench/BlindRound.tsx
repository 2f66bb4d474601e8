import { useRef } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Vote } from './logic';
import { PlayToggle } from './PlayToggle';
import { useResultWave } from './useResultWave';
import { useVoiceFacts, type Result } from './voice-results';

export type Done = Extract<Result, { status: 'done' }>;

/** A blind round: the voices as A and B, and the tester's vote once given. */
export interface Round {
  a: Done;
  b: Done;
  vote: Vote | null;
}

/** A blind round: A and B to play, then the vote's buttons, or once voted which was which. */
export function BlindRound({ round, onVote: vote }: { round: Round; onVote(choice: Vote): void }) {
  const intl = useIntl();
  const facts = useVoiceFacts();
  const revealed = round.vote;
  return (
    <div
      className="blind-round"
      role="group"
      aria-label={intl.formatMessage({
        id: 'voices.workbench.blind.round',
        defaultMessage: 'Blind round',
      })}
    >
      <div className="blind-sides">
        <BlindSide
          letter="A"
          result={round.a}
          name={revealed ? facts(round.a.code).name : null}
          chosen={revealed === 'a'}
        />
        <BlindSide
          letter="B"
          result={round.b}
          name={revealed ? facts(round.b.code).name : null}
          chosen={revealed === 'b'}
        />
      </div>
      {revealed ? (
        <p role="status" className="blind-reveal">
          {revealed === 'same'
            ? intl.formatMessage(
                {
                  id: 'voices.workbench.blind.revealSame',
                  defaultMessage: 'A was {a} ({aCode}), B was {b} ({bCode}). You heard no difference.',
                },
                {
                  a: facts(round.a.code).name,
                  aCode: round.a.code,
                  b: facts(round.b.code).name,
                  bCode: round.b.code,
                },
              )
            : intl.formatMessage(
                {
                  id: 'voices.workbench.blind.revealPreferred',
                  defaultMessage: 'A was {a} ({aCode}), B was {b} ({bCode}). You preferred {winner}.',
                },
                {
                  a: facts(round.a.code).name,
                  aCode: round.a.code,
                  b: facts(round.b.code).name,
                  bCode: round.b.code,
                  winner: facts(revealed === 'a' ? round.a.code : round.b.code).name,
                },
              )}
        </p>
      ) : (
        <div
          className="row"
          role="group"
          aria-label={intl.formatMessage({
            id: 'voices.workbench.blind.vote',
            defaultMessage: 'Your vote',
          })}
        >
          <button type="button" onClick={() => vote('a')}>
            <FormattedMessage id="voices.workbench.blind.aBetter" defaultMessage="A is better" />
          </button>
          <button type="button" onClick={() => vote('b')}>
            <FormattedMessage id="voices.workbench.blind.bBetter" defaultMessage="B is better" />
          </button>
          <button type="button" onClick={() => vote('same')}>
            <FormattedMessage id="voices.workbench.blind.same" defaultMessage="No difference" />
          </button>
        </div>
      )}
    </div>
  );
}

/** One side of a round: its letter, its voice's name once revealed, its waveform and play button. */
function BlindSide({
  letter,
  result,
  name,
  chosen,
}: {
  letter: string;
  result: Done;
  /** Shown once the vote is in. */
  name: string | null;
  chosen: boolean;
}) {
  const intl = useIntl();
  const container = useRef<HTMLDivElement | null>(null);
  const wave = useResultWave(container, result.url, result.peaks, result.measured.info.duration);
  return (
    <div className={`blind-side${chosen ? ' chosen' : ''}`}>
      <div className="row">
        <span className="blind-letter" aria-hidden="true">
          {letter}
        </span>
        <span className="name">
          {name ??
            intl.formatMessage({ id: 'voices.workbench.blind.hidden', defaultMessage: 'Hidden voice' })}
        </span>
      </div>
      <div className="workbench-wave" ref={container} aria-hidden="true" />
      <PlayToggle wave={wave} label={letter} />
    </div>
  );
}
