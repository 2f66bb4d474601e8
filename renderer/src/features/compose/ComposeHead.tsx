import { useIntl, FormattedMessage } from 'react-intl';
import { MANUSCRIPT_EXTENSIONS } from '../../../../electron/shared/manuscript';
import { useStudio } from '../../stores';
import type { useDraftReplacement } from './draft-replacement';

/** The files Open takes, for the file picker (the server tells the format by the bytes too). */
const MANUSCRIPT_ACCEPT = Object.values(MANUSCRIPT_EXTENSIONS)
  .flat()
  .map((extension) => `.${extension}`)
  .join(',');

/** The Compose panel's head: SSML, Dialogue voices, Open a manuscript and Clear. */
export function ComposeHead({
  editorId,
  drafts,
}: {
  editorId: string;
  drafts: ReturnType<typeof useDraftReplacement>;
}) {
  const intl = useIntl();
  const text = useStudio((s) => s.text);
  const ssml = useStudio((s) => s.ssml);
  const setSsml = useStudio((s) => s.setSsml);
  const dialogueOn = useStudio((s) => s.dialogue.enabled);
  const setDialogueEnabled = useStudio((s) => s.setDialogueEnabled);
  const { fileInput, reading, openFile, clear } = drafts;
  return (
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
  );
}
