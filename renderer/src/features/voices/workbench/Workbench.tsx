/**
 * The voice workbench: the tester's own sentence spoken by any number of voices (catalogue
 * voices, whatever installed pack speaks them, the user's own voices), side by side with a
 * waveform and the figures measured here; play one after another, a blind A/B test, favourites,
 * notes, and the comparison exported as a zip (each voice's WAV and a CSV).
 */

import { useId, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useShortcut } from '../../../lib/shortcuts';
import { VoiceSelect } from '../../../components/VoiceSelect';
import { useStudio } from '../../../stores';
import { TextLanguageNotice } from '../../compose/TextLanguageNotice';
import { BlindTest } from './BlindTest';
import { defaultSentence } from './logic';
import { ResultCard, workbenchMessages as m } from './ResultCard';
import { MAX_SENTENCE, SentenceField } from './SentenceField';
import { useComparison } from './useComparison';
import { useVoiceFacts } from './voice-results';
import './workbench.css';
import { BusyButton } from '../../../components/BusyButton';
import { useFocusAfterRemoval } from '../../../lib/focus-return';

export function Workbench() {
  const id = useId();
  const intl = useIntl();
  const saved = useStudio((s) => s.workbench);
  const voiceInUse = useStudio((s) => s.options.voice_code);
  const customVoices = useStudio((s) => s.customVoices);
  const queueVoice = useStudio((s) => s.queueWorkbenchVoice);
  const unqueueVoice = useStudio((s) => s.unqueueWorkbenchVoice);
  const facts = useVoiceFacts();
  const addButton = useRef<HTMLButtonElement>(null);
  // A voice taken out goes with its focused × button: "Add to the comparison" takes the focus.
  const focusAddAfterRemoval = useFocusAfterRemoval(saved.queue, addButton);

  const fallback = defaultSentence(facts(saved.queue[0] ?? voiceInUse).language);
  const sentence = saved.sentence ?? fallback;
  const [toAdd, setToAdd] = useState(voiceInUse);
  const {
    results,
    running,
    playingAll,
    status,
    noCache,
    setNoCache,
    done,
    wins,
    speakAll,
    playAll,
    stopPlayingAll,
    exportZip,
    register,
  } = useComparison(sentence);
  const tooLong = sentence.length > MAX_SENTENCE;
  const empty = sentence.trim() === '';
  // Ctrl/Cmd+Enter: "Speak with N voices", from any field of the workbench, when it can.
  const section = useRef<HTMLElement>(null);
  useShortcut(
    'speak',
    () => void speakAll(),
    !running && saved.queue.length > 0 && !tooLong && !empty,
    section,
  );

  return (
    <section ref={section} className="panel workbench" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>
        <FormattedMessage id="voices.workbench.title" defaultMessage="Voice workbench" />
      </h2>
      <p className="muted small">
        <FormattedMessage
          id="voices.workbench.intro"
          defaultMessage="Your own sentence, spoken by the voices you choose, side by side. Figures are measured in this window: first audio is the time from the request to its first byte of audio, the real-time factor the whole time divided by the audio's length (below 1 is faster than real time). Not charged."
        />
      </p>
      <SentenceField id={id} sentence={sentence} tooLong={tooLong} empty={empty} />
      <div className="row workbench-add">
        <div className="field">
          <label htmlFor={`${id}-add`}>
            <FormattedMessage id="voices.workbench.voiceToAdd" defaultMessage="Voice to compare" />
          </label>
          <VoiceSelect id={`${id}-add`} value={toAdd} onChange={setToAdd} />
        </div>
        <BusyButton
          ref={addButton}
          onClick={() => queueVoice(toAdd)}
          unavailable={!toAdd || saved.queue.includes(toAdd)}
        >
          <FormattedMessage id="voices.workbench.add" defaultMessage="Add to the comparison" />
        </BusyButton>
      </div>
      <TextLanguageNotice text={sentence} voiceCode={toAdd} customVoices={customVoices} onSwitch={setToAdd} />
      <div className="row workbench-actions">
        <BusyButton
          className="primary"
          onClick={() => void speakAll()}
          busy={running}
          unavailable={saved.queue.length === 0 || tooLong || empty}
        >
          {running
            ? intl.formatMessage(m.speaking)
            : intl.formatMessage(
                {
                  id: 'voices.workbench.speak',
                  defaultMessage: '{count, plural, one {Speak with # voice} other {Speak with # voices}}',
                },
                { count: saved.queue.length },
              )}
        </BusyButton>
        {playingAll ? (
          <button type="button" onClick={stopPlayingAll}>
            <FormattedMessage id="voices.workbench.stopPlaying" defaultMessage="Stop playing" />
          </button>
        ) : (
          <button type="button" onClick={() => void playAll()} disabled={done.length === 0 || running}>
            <FormattedMessage id="voices.workbench.playAll" defaultMessage="Play all" />
          </button>
        )}
        <button type="button" onClick={exportZip} disabled={done.length === 0 || running}>
          <FormattedMessage id="voices.workbench.export" defaultMessage="Export comparison (.zip)" />
        </button>
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            checked={noCache}
            onChange={(e) => setNoCache(e.target.checked)}
          />
          <FormattedMessage id="voices.workbench.noCache" defaultMessage="Measure without the cache" />
        </label>
        <span className="muted small" role="status">
          {status}
        </span>
      </div>
      {saved.queue.length === 0 ? (
        <p className="muted small">
          <FormattedMessage
            id="voices.workbench.empty"
            defaultMessage="Add two or more voices to compare them."
          />
        </p>
      ) : (
        <ul
          className="workbench-results"
          aria-label={intl.formatMessage({
            id: 'voices.workbench.list',
            defaultMessage: 'Voices to compare',
          })}
        >
          {saved.queue.map((code) => (
            <ResultCard
              key={code}
              result={results[code] ?? { code, status: 'idle' }}
              facts={facts(code)}
              sentence={sentence}
              current={playingAll === code}
              wins={wins.get(code) ?? 0}
              register={register}
              onRemove={
                running
                  ? undefined
                  : () => {
                      focusAddAfterRemoval();
                      unqueueVoice(code);
                    }
              }
            />
          ))}
        </ul>
      )}
      <BlindTest sentence={sentence} disabled={tooLong || empty} />
    </section>
  );
}
