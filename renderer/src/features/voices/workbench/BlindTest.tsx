/**
 * The blind A/B test: two voices speak the tester's sentence as "A" and "B" (which is which by
 * a coin), the tester votes, then the names are revealed; the tally is kept across reloads.
 */

import { useEffect, useId, useRef, useState } from 'react';
import { VoiceSelect } from '../../../components/VoiceSelect';
import { formatNumber } from '../../../lib/format';
import { useStudio } from '../../../stores';
import { assignBlind, tally, type Vote } from './logic';
import { PlayToggle } from './PlayToggle';
import { useResultWave } from './useResultWave';
import { useMeasure, useVoiceFacts, type Result } from './Workbench';

type Done = Extract<Result, { status: 'done' }>;

interface Round {
  a: Done;
  b: Done;
  vote: Vote | null;
}

export function BlindTest({ sentence, disabled }: { sentence: string; disabled: boolean }) {
  const id = useId();
  const queue = useStudio((s) => s.workbench.queue);
  const blind = useStudio((s) => s.workbench.blind);
  const addBlindResult = useStudio((s) => s.addBlindResult);
  const clearBlindResults = useStudio((s) => s.clearBlindResults);
  const facts = useVoiceFacts();
  const measure = useMeasure();
  const [first, setFirst] = useState(queue[0] ?? '');
  const [second, setSecond] = useState(queue[1] ?? '');
  const [round, setRound] = useState<Round | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const abort = useRef<AbortController | null>(null);
  const roundUrls = useRef<string[]>([]);

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
    } catch (e) {
      setError((e as Error).message);
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
        setError(`${facts(failed.code).name} could not speak: ${failed.error}`);
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
  };

  const lines = tally(blind);
  const revealed = round?.vote ?? null;

  return (
    <section className="blind-test" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Blind A/B test</h3>
      <p className="muted small">
        Two voices speak your sentence as A and B in a random order; listen, vote, then see which was which.
      </p>
      <div className="row blind-pick">
        <div className="field">
          <label htmlFor={`${id}-first`}>First voice</label>
          <VoiceSelect id={`${id}-first`} value={first} onChange={setFirst} emptyLabel="Choose a voice" />
        </div>
        <div className="field">
          <label htmlFor={`${id}-second`}>Second voice</label>
          <VoiceSelect id={`${id}-second`} value={second} onChange={setSecond} emptyLabel="Choose a voice" />
        </div>
        <button
          type="button"
          className="primary"
          onClick={() => void start()}
          disabled={busy || disabled || !first || !second || first === second}
          aria-busy={busy}
        >
          {busy ? 'Preparing…' : round ? 'New round' : 'Start a blind round'}
        </button>
      </div>
      {first && first === second && <p className="muted small">Choose two different voices.</p>}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {round && (
        <div className="blind-round" role="group" aria-label="Blind round">
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
              A was {facts(round.a.code).name} ({round.a.code}), B was {facts(round.b.code).name} (
              {round.b.code}).{' '}
              {revealed === 'same'
                ? 'You heard no difference.'
                : `You preferred ${facts(revealed === 'a' ? round.a.code : round.b.code).name}.`}
            </p>
          ) : (
            <div className="row" role="group" aria-label="Your vote">
              <button type="button" onClick={() => vote('a')}>
                A is better
              </button>
              <button type="button" onClick={() => vote('b')}>
                B is better
              </button>
              <button type="button" onClick={() => vote('same')}>
                No difference
              </button>
            </div>
          )}
        </div>
      )}
      {lines.length > 0 && (
        <>
          <table className="blind-tally">
            <caption>
              Tally over {formatNumber(blind.length)} {blind.length === 1 ? 'round' : 'rounds'}
            </caption>
            <thead>
              <tr>
                <th scope="col">Voice</th>
                <th scope="col">Wins</th>
                <th scope="col">Rounds</th>
              </tr>
            </thead>
            <tbody>
              {lines.map((l) => (
                <tr key={l.voiceCode}>
                  <th scope="row">
                    {facts(l.voiceCode).name} <code>{l.voiceCode}</code>
                  </th>
                  <td>{formatNumber(l.wins)}</td>
                  <td>{formatNumber(l.rounds)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <button type="button" className="link small" onClick={clearBlindResults}>
            Clear the tally
          </button>
        </>
      )}
    </section>
  );
}

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
  const container = useRef<HTMLDivElement | null>(null);
  const wave = useResultWave(container, result.url, result.peaks, result.measured.info.duration);
  return (
    <div className={`blind-side${chosen ? ' chosen' : ''}`}>
      <div className="row">
        <span className="blind-letter" aria-hidden="true">
          {letter}
        </span>
        <span className="name">{name ?? 'Hidden voice'}</span>
      </div>
      <div className="workbench-wave" ref={container} aria-hidden="true" />
      <PlayToggle wave={wave} label={letter} />
    </div>
  );
}
