import { useDeferredValue, useId, useMemo, useRef, useState } from 'react';
import { MAX_MATCH_CHARS } from '../../../../electron/shared/lexicon';
import { findVoice } from '../../../../electron/shared/voices';
import { countCharacters, estimateCredits, estimateSeconds } from '../../lib/estimate';
import { formatCredits, formatDuration } from '../../lib/format';
import { useAudition } from '../../lib/useAudition';
import { useStudio } from '../../stores';
import { LexiconEntryForm } from '../lexicon/LexiconEntryForm';
import { DialoguePanel } from './DialoguePanel';
import { SsmlHelp } from './SsmlHelp';

/** The selected text when it can be a lexicon entry's match: one line, a letter or digit, not too long. */
export function lexiconCandidate(text: string, start: number, end: number): string | undefined {
  const selected = text
    .slice(Math.min(start, end), Math.max(start, end))
    .trim()
    .replace(/^[\p{P}\s]+|[\p{P}\s]+$/gu, '');
  if (selected === '' || selected.length > MAX_MATCH_CHARS || /[\r\n]/.test(selected)) return undefined;
  return /[\p{L}\p{N}]/u.test(selected) ? selected : undefined;
}

/** The text editor with live character count, credit and duration estimates. */
export function ComposePanel() {
  const text = useStudio((s) => s.text);
  const setText = useStudio((s) => s.setText);
  const options = useStudio((s) => s.options);
  const ssml = useStudio((s) => s.ssml);
  const setSsml = useStudio((s) => s.setSsml);
  const dialogueOn = useStudio((s) => s.dialogue.enabled);
  const setDialogueEnabled = useStudio((s) => s.setDialogueEnabled);
  const fileInput = useRef<HTMLInputElement>(null);
  // State, not a ref: the SSML error's "show line…" button needs the element once it exists.
  const [editor, setEditor] = useState<HTMLTextAreaElement | null>(null);
  const editorId = useId();
  // Counting a long chapter happens at lower priority than typing, so the editor stays responsive.
  const deferred = useDeferredValue(text);
  const characters = useMemo(() => countCharacters(deferred), [deferred]);
  const voice = findVoice(options.voice_code);
  const credits = voice ? estimateCredits(characters, voice, options.model_id) : 0;
  const seconds = estimateSeconds(characters, options.speed_rate);
  const turbo = voice?.standard && options.model_id === 'std-v1.5-turbo';
  // The word selected in the editor, offered to the lexicon; the form keeps it once opened.
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const [adding, setAdding] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const audition = useAudition();

  const openFile = async (file: File | undefined) => {
    if (file) setText(await file.text());
  };

  return (
    <section className="panel" aria-labelledby={`${editorId}-title`}>
      <div className="panel-head">
        <h2 id={`${editorId}-title`}>Compose</h2>
        <div className="row">
          <label className="switch">
            <input
              type="checkbox"
              role="switch"
              checked={ssml}
              onChange={(e) => setSsml(e.target.checked)}
              aria-describedby={`${editorId}-ssml-hint`}
            />
            SSML
          </label>
          <button
            type="button"
            className="compose-toggle"
            aria-pressed={dialogueOn && !ssml}
            disabled={ssml}
            title={ssml ? 'In SSML, switch voices with <voice name="…">' : undefined}
            onClick={() => setDialogueEnabled(!dialogueOn)}
          >
            Dialogue voices
          </button>
          <input
            ref={fileInput}
            type="file"
            accept=".txt,.md,text/plain,text/markdown"
            className="visually-hidden"
            aria-label="Open a text file"
            tabIndex={-1}
            onChange={(e) => void openFile(e.target.files?.[0])}
          />
          <button type="button" onClick={() => fileInput.current?.click()}>
            Open .txt / .md…
          </button>
          <button type="button" onClick={() => setText('')} disabled={text === ''}>
            Clear
          </button>
        </div>
      </div>
      <label htmlFor={editorId} className="visually-hidden">
        Text to speak
      </label>
      <textarea
        ref={setEditor}
        id={editorId}
        className="editor"
        value={text}
        placeholder={
          ssml
            ? '<speak>\n<p>The keeper turned. <voice name="en_female_nova_default">“Who is there?”</voice></p>\n</speak>'
            : 'Paste a chapter or type a few lines…'
        }
        spellCheck={!ssml}
        aria-describedby={`${editorId}-ssml-hint`}
        onChange={(e) => setText(e.target.value)}
        onSelect={(e) =>
          setSelected(
            lexiconCandidate(
              e.currentTarget.value,
              e.currentTarget.selectionStart,
              e.currentTarget.selectionEnd,
            ),
          )
        }
      />
      <SsmlHelp id={`${editorId}-ssml-hint`} editor={editor} />
      {dialogueOn && !ssml && <DialoguePanel />}
      {selected !== undefined && adding === null && (
        <div className="selection-bar">
          <button
            type="button"
            onClick={() => {
              setAdded(null);
              setAdding(selected);
            }}
          >
            Add “{selected.length > 40 ? `${selected.slice(0, 40)}…` : selected}” to lexicon
          </button>
        </div>
      )}
      {adding !== null && (
        <div className="lexicon-popover" role="dialog" aria-label="Add to lexicon">
          <h3>How should “{adding}” be said?</h3>
          <LexiconEntryForm
            compact
            initial={{ match: adding, language: voice?.language ?? 'en' }}
            audition={audition}
            onSaved={(entry) => {
              setAdding(null);
              setAdded(`“${entry.match}” is in the lexicon: every voice of its language says it this way.`);
            }}
            onCancel={() => {
              audition.stop();
              setAdding(null);
            }}
          />
        </div>
      )}
      {added && (
        <p className="hint" role="status" style={{ marginTop: 8 }}>
          {added}
        </p>
      )}
      <div className="stats" aria-live="polite">
        <div className="stat">
          <b>{characters.toLocaleString('en-US')}</b>
          <span>characters</span>
        </div>
        <div className="stat">
          <b>{formatCredits(credits)}</b>
          <span>
            estimated credits{voice ? ` · ${voice.price}/1000 chars` : ''}
            {turbo ? ' · turbo ½' : ''}
          </span>
        </div>
        <div className="stat">
          <b>{formatDuration(seconds)}</b>
          <span>estimated duration</span>
        </div>
        <div className="stat">
          <span className="small">Draft saved in this browser</span>
        </div>
      </div>
    </section>
  );
}
