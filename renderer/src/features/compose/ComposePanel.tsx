import { useDeferredValue, useId, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { MAX_MATCH_CHARS } from '../../../../electron/shared/lexicon';
import { BusyButton } from '../../components/BusyButton';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { offsetAt } from '../../lib/dialogue-ssml';
import { countCharacters } from '../../lib/estimate';
import { formatShown } from '../../lib/intl-text';
import { catalogueVoiceOf } from '../../lib/voice-codes';
import { useStudio } from '../../stores';
import { ComposeHead } from './ComposeHead';
import { ComposeStats } from './ComposeStats';
import { DialoguePanel } from './DialoguePanel';
import { useDraftReplacement } from './draft-replacement';
import { SelectionToLexicon } from './SelectionToLexicon';
import { SsmlHelp } from './SsmlHelp';
import { TextLanguageNotice } from './TextLanguageNotice';

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
  const dialogueOn = useStudio((s) => s.dialogue.enabled);
  // State, not a ref: the SSML error's "show line…" button needs the element once it exists.
  const [editor, setEditor] = useState<HTMLTextAreaElement | null>(null);
  const editorId = useId();
  // Counting a long chapter happens at lower priority than typing, so the editor stays responsive.
  const deferred = useDeferredValue(text);
  const characters = useMemo(() => countCharacters(deferred), [deferred]);
  const customVoices = useStudio((s) => s.customVoices);
  const setOption = useStudio((s) => s.setOption);
  const voice = catalogueVoiceOf(options.voice_code, customVoices);
  // The word selected in the editor, offered to the lexicon; the form keeps it once opened.
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const jobError = useStudio((s) => s.jobError);
  const jobErrorPlace = useStudio((s) => s.jobErrorPlace);
  const drafts = useDraftReplacement(editor, characters);
  const { question, setQuestion, fileError } = drafts;
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

  return (
    <section className="panel" aria-labelledby={`${editorId}-title`} data-result-focus-from>
      <ComposeHead editorId={editorId} drafts={drafts} />
      <ConfirmDialog
        request={question?.request ?? null}
        onCancel={() => setQuestion(null)}
        onConfirm={() => {
          question?.go();
          setQuestion(null);
        }}
      />
      {drafts.reading !== null && (
        <p className="hint" role="status" style={{ marginBottom: 8 }}>
          <FormattedMessage
            id="compose.open.readingFile"
            defaultMessage="Reading “{name}”…"
            values={{ name: drafts.reading }}
          />
        </p>
      )}
      {drafts.readNote && (
        <p className="hint" role="status">
          {drafts.readNote}
        </p>
      )}
      <ReplacedDraftToast undo={drafts.undo} />
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
      <ComposeActions />
      {dialogueOn && !ssml && <DialoguePanel />}
      <SelectionToLexicon selected={selected} language={voice?.language ?? 'en'} />
      <ComposeStats characters={characters} />
    </section>
  );
}

/** Says what replaced the draft (Clear, a file, a History request), with Undo. */
function ReplacedDraftToast({ undo }: { undo(): void }) {
  const intl = useIntl();
  const replacedDraft = useStudio((s) => s.replacedDraft);
  const dismissReplacedDraft = useStudio((s) => s.dismissReplacedDraft);
  if (!replacedDraft) return null;
  return (
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
  );
}

/** Generate (Ctrl+Enter from anywhere), How it will be read. */
function ComposeActions() {
  const intl = useIntl();
  const text = useStudio((s) => s.text);
  const ssml = useStudio((s) => s.ssml);
  const generate = useStudio((s) => s.generate);
  const readEditor = useStudio((s) => s.readEditor);
  const generating = useStudio((s) => s.generating);
  return (
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
  );
}
