import { useId, useRef } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { readBase64 } from '../../lib/read-file';
import { useStudio } from '../../stores';
import type { ExportDraft } from '../../stores/export-slice';

const m = defineMessages({
  coverType: { id: 'export.cover.wrongType', defaultMessage: 'The cover must be a JPEG or PNG picture.' },
  coverSize: { id: 'export.cover.tooLarge', defaultMessage: 'The cover must be at most 2 MiB.' },
  coverInput: { id: 'export.cover.input', defaultMessage: 'Cover (JPEG or PNG, at most 2 MiB)' },
});

/** Covers larger than this are refused by the server; said here before the upload. */
const MAX_COVER_BYTES = 2 * 1024 * 1024;

/** The book: its text (or the Studio's), title, author and cover; kept in export-slice.ts. */
export function ExportBookPanel({
  onError,
  fail,
}: {
  onError(message: string | null): void;
  fail(e: unknown): void;
}) {
  const id = useId();
  const intl = useIntl();
  const studioText = useStudio((s) => s.text);
  const draft = useStudio((s) => s.exportDraft);
  const update = useStudio((s) => s.updateExportDraft);
  const { text, title, author, cover } = draft;
  const setText = (value: string) => update({ text: value });
  const setTitle = (value: string) => update({ title: value });
  const setAuthor = (value: string) => update({ author: value });
  const setCover = (value: ExportDraft['cover']) => update({ cover: value });
  const coverInput = useRef<HTMLInputElement>(null);

  const chooseCover = async (file: File | undefined) => {
    onError(null);
    if (!file) return setCover(null);
    if (!/^image\/(jpeg|png)$/.test(file.type)) return onError(intl.formatMessage(m.coverType));
    if (file.size > MAX_COVER_BYTES) return onError(intl.formatMessage(m.coverSize));
    try {
      setCover({ name: file.name, base64: await readBase64(file), type: file.type });
    } catch (e) {
      fail(e);
    }
  };

  return (
    <div className="panel">
      <div className="panel-head">
        <h2>
          <FormattedMessage id="export.book.heading" defaultMessage="Book" />
        </h2>
        <button type="button" onClick={() => setText(studioText)} disabled={studioText.trim() === ''}>
          <FormattedMessage id="export.book.useStudioText" defaultMessage="Use the Studio text" />
        </button>
      </div>
      <div className="field">
        <label htmlFor={`${id}-text`}>
          <FormattedMessage id="export.book.text" defaultMessage="Book text" />
        </label>
        <textarea
          id={`${id}-text`}
          rows={9}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={intl.formatMessage(
            {
              id: 'export.book.text.placeholder',
              defaultMessage:
                '# Chapter One{br}{br}It was a bright cold day in April…{br}{br}# Chapter Two{br}{br}…',
            },
            { br: '\n' },
          )}
        />
      </div>
      <div className="export-tags">
        <div className="field">
          <label htmlFor={`${id}-book-title`}>
            <FormattedMessage id="export.book.title" defaultMessage="Title" />
          </label>
          <input
            id={`${id}-book-title`}
            type="text"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-author`}>
            <FormattedMessage id="export.book.author" defaultMessage="Author" />
          </label>
          <input id={`${id}-author`} type="text" value={author} onChange={(e) => setAuthor(e.target.value)} />
        </div>
      </div>
      <div className="field">
        <span className="field-label">
          <FormattedMessage id="export.cover.heading" defaultMessage="Cover" />
        </span>
        <div className="row">
          <input
            ref={coverInput}
            type="file"
            accept="image/jpeg,image/png"
            className="visually-hidden"
            aria-label={intl.formatMessage(m.coverInput)}
            tabIndex={-1}
            onChange={(e) => void chooseCover(e.target.files?.[0])}
          />
          <button type="button" onClick={() => coverInput.current?.click()}>
            {cover ? (
              <FormattedMessage id="export.cover.change" defaultMessage="Change cover…" />
            ) : (
              <FormattedMessage id="export.cover.choose" defaultMessage="Choose cover…" />
            )}
          </button>
          {cover ? (
            <>
              <img
                className="export-cover"
                src={`data:${cover.type};base64,${cover.base64}`}
                alt={intl.formatMessage(
                  { id: 'export.cover.alt', defaultMessage: 'Cover: {name}' },
                  { name: cover.name },
                )}
              />
              <button type="button" className="link" onClick={() => setCover(null)}>
                <FormattedMessage id="export.cover.remove" defaultMessage="Remove cover" />
              </button>
            </>
          ) : (
            <span className="hint">
              <FormattedMessage id="export.cover.hint" defaultMessage="JPEG or PNG, at most 2 MiB" />
            </span>
          )}
        </div>
      </div>
    </div>
  );
}
