import { useRef, useState } from 'react';
import { defineMessages, useIntl } from 'react-intl';
import { MANUSCRIPT_LIMITS } from '../../../../electron/shared/manuscript';
import type { ConfirmRequest } from '../../components/ConfirmDialog';
import { errorMessage } from '../../lib/api-client';
import type { ShownText } from '../../lib/intl-text';
import { useClient, useStudio } from '../../stores';
import { fileReadNote } from './file-read-note';

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

/**
 * What replaces the Compose draft: a manuscript opened (read by the server's readers), Clear,
 * and Undo of either. A draft with text is replaced only after a question (`question`, for the
 * panel's confirm dialog); the file being read, its note and its error are kept here.
 */
export function useDraftReplacement(editor: HTMLTextAreaElement | null, characters: number) {
  const intl = useIntl();
  const client = useClient();
  const text = useStudio((s) => s.text);
  const setText = useStudio((s) => s.setText);
  const ssml = useStudio((s) => s.ssml);
  const setSsml = useStudio((s) => s.setSsml);
  const rememberDraft = useStudio((s) => s.rememberDraft);
  const takeReplacedDraft = useStudio((s) => s.takeReplacedDraft);
  const clearJobError = useStudio((s) => s.clearJobError);
  const fileInput = useRef<HTMLInputElement>(null);
  // The question before a draft with text is replaced, and what to do if the answer is yes.
  const [question, setQuestion] = useState<{ request: ConfirmRequest; go(): void } | null>(null);
  const [fileError, setFileError] = useState<ShownText | null>(null);
  const [reading, setReading] = useState<string | null>(null);
  /** What the last file opened was read in, when it was not UTF-8 (a legacy Vietnamese encoding or another). */
  const [readNote, setReadNote] = useState<string | null>(null);
  // One current error in this panel: a Generate attempt clears an older file error (and
  // opening a file clears the Generate error, below).
  const attempts = useStudio((s) => s.attempts);
  const [seenAttempts, setSeenAttempts] = useState(attempts);
  if (attempts !== seenAttempts) {
    setSeenAttempts(attempts);
    setFileError(null);
  }

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

  return { fileInput, question, setQuestion, fileError, reading, readNote, clear, undo, openFile };
}
