import { useDeferredValue, useId, useMemo, useRef, useState } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { MAX_MATCH_CHARS } from '../../../../electron/shared/lexicon';
import { MANUSCRIPT_EXTENSIONS, MANUSCRIPT_LIMITS } from '../../../../electron/shared/manuscript';
import { ConfirmDialog, type ConfirmRequest } from '../../components/ConfirmDialog';
import { errorMessage } from '../../lib/api-client';
import { countCharacters, estimateCredits, estimateSeconds } from '../../lib/estimate';
import { formatCredits, formatDuration, formatNumber } from '../../lib/format';
import { useAudition } from '../../lib/useAudition';
import { voicePrice } from '../../lib/voice-price';
import { offsetAt } from '../../lib/dialogue-ssml';
import { catalogueVoiceOf } from '../../lib/voice-codes';
import { useClient, useStudio } from '../../stores';
import { formatShown, type ShownText } from '../../lib/intl-text';
import { LexiconEntryForm } from '../lexicon/LexiconEntryForm';
import { DialoguePanel } from './DialoguePanel';
import { fileReadNote } from './file-read-note';
import { SsmlHelp } from './SsmlHelp';
import { TextLanguageNotice } from './TextLanguageNotice';
import { BusyButton } from '../../components/BusyButton';

/** The selected text when it can be a lexicon entry's match: one line, a letter or digit, not too long. */
export function lexiconCandidate(text: string, start: number, end: number): string | undefined {
  const selected = text
    .slice(Math.min(start, end), Math.max(start, end))
    .trim()
    .replace(/^[\p{P}\s]+|[\p{P}\s]+$/gu, '');
  if (selected === '' || selected.length > MAX_MATCH_CHARS || /[\r\n]/.test(selected)) return undefined;
  return /[\p{L}\p{N}]/u.test(selected) ? selected : undefined;
}

/** The files Open takes, for the file picker (the server tells the format by the bytes too). */
const MANUSCRIPT_ACCEPT = Object.values(MANUSCRIPT_EXTENSIONS)
  .flat()
  .map((extension) => `.${extension}`)
  .join(',');

const messages = defineMessages({
  tooLarge: {
    id: 'compose.open.tooLarge',
    defaultMessage: '"{name}" is larger than {mib, number} MiB, the most a manuscript may be.',
  },
});

/**
 * Puts `text` into the editor as one edit the editor itself records, so that its Ctrl+Z takes it
 * back (setting a controlled textarea's value would wipe the editor's undo history). False where
 * the browser cannot (the caller then sets the text directly).
 */
function replaceInEditor(editor: HTMLTextAreaElement | null, text: string): boolean {
  if (!editor || typeof document.execCommand !== 'function') return false;
  editor.focus();
  editor.select();
  if (editor.value === '' && text === '') return true;
  // execCommand is deprecated but still the only way to edit a textarea with undo history.
  const done = text === '' ? document.execCommand('delete') : document.execCommand('insertText', false, text);
  return done && editor.value === text;
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
  const customVoices = useStudio((s) => s.customVoices);
  const setOption = useStudio((s) => s.setOption);
  const voice = catalogueVoiceOf(options.voice_code, customVoices);
  const credits = voice ? estimateCredits(characters, voice, options.model_id) : 0;
  const seconds = estimateSeconds(characters, options.speed_rate);
  const turbo = voice?.standard && options.model_id === 'std-v1.5-turbo';
  // The word selected in the editor, offered to the lexicon; the form keeps it once opened.
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const [adding, setAdding] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const audition = useAudition();
  const client = useClient();
  const rememberDraft = useStudio((s) => s.rememberDraft);
  const replacedDraft = useStudio((s) => s.replacedDraft);
  const takeReplacedDraft = useStudio((s) => s.takeReplacedDraft);
  const dismissReplacedDraft = useStudio((s) => s.dismissReplacedDraft);
  // The question before a draft with text is replaced, and what to do if the answer is yes.
  const [question, setQuestion] = useState<{ request: ConfirmRequest; go(): void } | null>(null);
  const [fileError, setFileError] = useState<ShownText | null>(null);
  const [reading, setReading] = useState<string | null>(null);
  /** What the last file opened was read in, when it was not UTF-8 (a legacy Vietnamese encoding or another). */
  const [readNote, setReadNote] = useState<string | null>(null);
  const generate = useStudio((s) => s.generate);
  const readEditor = useStudio((s) => s.readEditor);
  const generating = useStudio((s) => s.generating);
  const jobError = useStudio((s) => s.jobError);
  const jobErrorPlace = useStudio((s) => s.jobErrorPlace);
  const clearJobError = useStudio((s) => s.clearJobError);
  // One current error in this panel: a Generate attempt clears an older file error (and
  // opening a file clears the Generate error, below).
  const attempts = useStudio((s) => s.attempts);
  const [seenAttempts, setSeenAttempts] = useState(attempts);
  if (attempts !== seenAttempts) {
    setSeenAttempts(attempts);
    setFileError(null);
  }
  const intl = useIntl();
  const shownError = fileError ?? jobError;
  const error = shownError === null ? null : formatShown(intl, shownError);
  const place = fileError === null ? jobErrorPlace : null;

  /** Puts the cursor where the error is (an SSML error's line and column). */
  const showPlace = () => {
    if (!editor || !place) return;
    const at = place.offset ?? offsetAt(editor.value, place.line, place.column);
    editor.focus();
    editor.setSelectionRange(at, Math.min(at + 1, editor.value.length));
  };

  /** Replaces the draft, keeping the old one for Undo (and for the editor's own Ctrl+Z). */
  const replaceDraft = (next: string, by: Parameters<typeof rememberDraft>[0], nextSsml = ssml) => {
    rememberDraft(by);
    if (nextSsml !== ssml) setSsml(nextSsml);
    if (!replaceInEditor(editor, next)) setText(next);
  };

  /** Asks first when the draft has text; otherwise goes ahead. */
  const askFirst = (request: ConfirmRequest, go: () => void) => {
    if (text.trim() === '') go();
    else setQuestion({ request, go });
  };

  const clear = () =>
    askFirst(
      {
        title: intl.formatMessage({ id: 'compose.clear.title', defaultMessage: 'Clear the draft?' }),
        message: intl.formatMessage(
          {
            id: 'compose.clear.message',
            defaultMessage:
              'The draft ({count, plural, one {# character} other {# characters}}) will be emptied. Undo brings it back.',
          },
          { count: characters },
        ),
        confirmLabel: intl.formatMessage({ id: 'compose.clear.confirm', defaultMessage: 'Clear draft' }),
      },
      () => replaceDraft('', { kind: 'clear' }),
    );

  const undo = () => {
    const previous = takeReplacedDraft();
    if (!previous) return;
    setReadNote(null);
    if (previous.ssml !== ssml) setSsml(previous.ssml);
    if (!replaceInEditor(editor, previous.text)) setText(previous.text);
  };

  /** Reads the file through the server's manuscript readers; replaces the draft only with text. */
  const openFile = async (file: File | undefined) => {
    if (fileInput.current) fileInput.current.value = '';
    if (!file) return;
    setFileError(null);
    setReadNote(null);
    clearJobError();
    if (file.size > MANUSCRIPT_LIMITS.fileBytes) {
      setFileError({
        message: messages.tooLarge,
        values: { name: file.name, mib: MANUSCRIPT_LIMITS.fileBytes / 1024 / 1024 },
      });
      return;
    }
    setReading(file.name);
    try {
      const manuscript = await client.readManuscript(file, file.name);
      askFirst(
        {
          title: intl.formatMessage({ id: 'compose.replace.title', defaultMessage: 'Replace the draft?' }),
          message: intl.formatMessage(
            {
              id: 'compose.replace.message',
              defaultMessage:
                'The draft ({count, plural, one {# character} other {# characters}}) will be replaced by the text of "{name}" ({chapters, plural, one {# chapter} other {# chapters}}). Undo brings the draft back.',
            },
            { count: characters, name: file.name, chapters: manuscript.chapters.length },
          ),
          confirmLabel: intl.formatMessage({
            id: 'compose.replace.confirm',
            defaultMessage: 'Replace draft',
          }),
        },
        () => {
          replaceDraft(manuscript.text, { kind: 'file', fileName: file.name }, false);
          setReadNote(fileReadNote(intl, file.name, manuscript));
        },
      );
    } catch (e) {
      setFileError(errorMessage(e));
    } finally {
      setReading(null);
    }
  };

  return (
    <section className="panel" aria-labelledby={`${editorId}-title`} data-result-focus-from>
      <div className="panel-head">
        <h2 id={`${editorId}-title`}>
          <FormattedMessage id="compose.title" defaultMessage="Compose" />
        </h2>
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
            title={
              ssml
                ? intl.formatMessage({
                    id: 'compose.dialogue.inSsml',
                    defaultMessage: 'In SSML, switch voices with \'<\'voice name="…">',
                  })
                : undefined
            }
            onClick={() => setDialogueEnabled(!dialogueOn)}
          >
            <FormattedMessage id="compose.dialogue.toggle" defaultMessage="Dialogue voices" />
          </button>
          <input
            ref={fileInput}
            type="file"
            accept={MANUSCRIPT_ACCEPT}
            className="visually-hidden"
            aria-label={intl.formatMessage({
              id: 'compose.open.label',
              defaultMessage: 'Open a manuscript (DOCX, EPUB, ODT, PDF, HTML, Markdown or text)',
            })}
            tabIndex={-1}
            onChange={(e) => void openFile(e.target.files?.[0])}
          />
          <button
            type="button"
            onClick={() => fileInput.current?.click()}
            disabled={reading !== null}
            title={intl.formatMessage({
              id: 'compose.open.title',
              defaultMessage:
                'DOCX, EPUB, ODT, PDF (with a text layer), HTML, Markdown or plain text: chapters become # headings',
            })}
          >
            {reading !== null ? (
              <FormattedMessage id="compose.open.reading" defaultMessage="Reading…" />
            ) : (
              <FormattedMessage id="compose.open.button" defaultMessage="Open DOCX, EPUB, PDF, text…" />
            )}
          </button>
          <button type="button" onClick={clear} disabled={text === ''}>
            <FormattedMessage id="compose.clear.button" defaultMessage="Clear" />
          </button>
        </div>
      </div>
      <ConfirmDialog
        request={question?.request ?? null}
        onCancel={() => setQuestion(null)}
        onConfirm={() => {
          question?.go();
          setQuestion(null);
        }}
      />
      {reading !== null && (
        <p className="hint" role="status" style={{ marginBottom: 8 }}>
          <FormattedMessage
            id="compose.open.readingFile"
            defaultMessage="Reading “{name}”…"
            values={{ name: reading }}
          />
        </p>
      )}
      {readNote && (
        <p className="hint" role="status">
          {readNote}
        </p>
      )}
      {replacedDraft && (
        <div className="undo-toast" role="status">
          <span>
            {replacedDraft.by.kind === 'clear'
              ? intl.formatMessage({ id: 'compose.undo.cleared', defaultMessage: 'Draft cleared.' })
              : replacedDraft.by.kind === 'history'
                ? intl.formatMessage({
                    id: 'compose.undo.history',
                    defaultMessage: 'Draft replaced by a request from History.',
                  })
                : intl.formatMessage(
                    { id: 'compose.undo.file', defaultMessage: 'Draft replaced by the text of “{name}”.' },
                    { name: replacedDraft.by.fileName },
                  )}
          </span>
          <button type="button" onClick={undo}>
            <FormattedMessage id="compose.undo.button" defaultMessage="Undo" />
          </button>
          <button
            type="button"
            className="link"
            aria-label={intl.formatMessage({ id: 'compose.undo.dismiss', defaultMessage: 'Dismiss' })}
            onClick={dismissReplacedDraft}
          >
            ×
          </button>
        </div>
      )}
      <label htmlFor={editorId} className="visually-hidden">
        <FormattedMessage id="compose.editor.label" defaultMessage="Text to speak" />
      </label>
      <textarea
        ref={setEditor}
        id={editorId}
        className="editor"
        value={text}
        placeholder={
          ssml
            ? intl.formatMessage({
                id: 'compose.editor.ssmlPlaceholder',
                defaultMessage:
                  "'<speak>\n<p>'The keeper turned. '<voice name=\"en_female_nova_default\">'“Who is there?”'</voice></p>\n</speak>'",
              })
            : intl.formatMessage({
                id: 'compose.editor.placeholder',
                defaultMessage: 'Paste a chapter or type a few lines…',
              })
        }
        spellCheck={!ssml}
        aria-describedby={error ? `${editorId}-ssml-hint ${editorId}-error` : `${editorId}-ssml-hint`}
        aria-invalid={place ? true : undefined}
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
      <SsmlHelp id={`${editorId}-ssml-hint`} />
      {!ssml && (
        <TextLanguageNotice
          text={text}
          voiceCode={options.voice_code}
          customVoices={customVoices}
          onSwitch={(code) => setOption('voice_code', code)}
        />
      )}
      {error && (
        <div className="error row compose-error" role="alert" id={`${editorId}-error`}>
          <span>{error}</span>
          {place && (
            <button type="button" className="link" onClick={showPlace}>
              <FormattedMessage
                id="compose.error.showPlace"
                defaultMessage="Show line {line}, column {column}"
                values={{ line: place.line, column: place.column }}
              />
            </button>
          )}
        </div>
      )}
      <div className="row compose-actions">
        <BusyButton
          className="primary"
          busy={generating}
          aria-keyshortcuts="Control+Enter Meta+Enter"
          onClick={() => void generate()}
        >
          {generating ? (
            <FormattedMessage id="compose.generating" defaultMessage="Generating…" />
          ) : (
            <FormattedMessage id="compose.generate" defaultMessage="Generate" />
          )}
        </BusyButton>
        <button
          type="button"
          disabled={ssml || text.trim() === ''}
          title={
            ssml
              ? intl.formatMessage({
                  id: 'compose.reading.inSsml',
                  defaultMessage: 'Shows the reading of plain text: switch SSML off first',
                })
              : undefined
          }
          onClick={() => void readEditor()}
        >
          <FormattedMessage id="compose.reading" defaultMessage="How it will be read" />
        </button>
        <span className="hint">
          <FormattedMessage
            id="compose.generate.shortcut"
            defaultMessage="<kbd>Ctrl</kbd>+<kbd>Enter</kbd> from anywhere in the Studio"
            values={{ kbd: (chunks) => <kbd>{chunks}</kbd> }}
          />
        </span>
      </div>
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
            <FormattedMessage
              id="compose.lexicon.add"
              defaultMessage="Add “{text}” to lexicon"
              values={{ text: selected.length > 40 ? `${selected.slice(0, 40)}…` : selected }}
            />
          </button>
        </div>
      )}
      {adding !== null && (
        <div
          className="lexicon-popover"
          role="dialog"
          aria-label={intl.formatMessage({ id: 'compose.lexicon.dialog', defaultMessage: 'Add to lexicon' })}
        >
          <h3>
            <FormattedMessage
              id="compose.lexicon.how"
              defaultMessage="How should “{text}” be said?"
              values={{ text: adding }}
            />
          </h3>
          <LexiconEntryForm
            compact
            initial={{ match: adding, language: voice?.language ?? 'en' }}
            audition={audition}
            onSaved={(entry) => {
              setAdding(null);
              setAdded(entry.match);
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
          <FormattedMessage
            id="compose.lexicon.added"
            defaultMessage="“{text}” is in the lexicon: every voice of its language says it this way."
            values={{ text: added }}
          />
        </p>
      )}
      <div className="stats" aria-live="polite">
        <div className="stat">
          <b>{formatNumber(characters)}</b>
          <span>
            <FormattedMessage
              id="compose.stats.characters"
              defaultMessage="{count, plural, one {character} other {characters}}"
              values={{ count: characters }}
            />
          </span>
        </div>
        <div className="stat">
          <b>{formatCredits(credits)}</b>
          <span>
            <FormattedMessage id="compose.stats.credits" defaultMessage="estimated credits" />
            {voice && (
              <>
                {' · '}
                {voicePrice(voice.price, intl)}
              </>
            )}
            {turbo && (
              <>
                {' · '}
                <FormattedMessage id="compose.stats.turbo" defaultMessage="turbo ½" />
              </>
            )}
          </span>
        </div>
        <div className="stat">
          <b>{formatDuration(seconds)}</b>
          <span>
            <FormattedMessage id="compose.stats.duration" defaultMessage="estimated duration" />
          </span>
        </div>
        <div className="stat">
          <span className="small">
            <FormattedMessage id="compose.stats.saved" defaultMessage="Draft saved in this browser" />
          </span>
        </div>
      </div>
    </section>
  );
}
