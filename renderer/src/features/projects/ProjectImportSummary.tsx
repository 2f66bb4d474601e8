/**
 * What an import did with a manuscript, shown once in the project it made (issue 38): the
 * language chosen and where it came from (the request, the text, the metadata, the voice or the
 * default; the metadata's language when the text overruled it), the legacy Vietnamese
 * encoding its text was converted from, or the character encoding a text file that is not UTF-8
 * was read in. From the import's answer (`language_choice`, `legacy_encoding`, `text_encoding`),
 * in the interface's language; language names from Intl (languageName).
 */

import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { LEGACY_VIETNAMESE_NAMES, TEXT_ENCODING_NAMES } from '../../../../electron/shared/manuscript';
import { languageName } from '../../lib/intl-text';
import { useStudio } from '../../stores';
import type { ImportSummary } from '../../stores/projects-slice';

/** The summary's sentences: the language line (when the answer says how), then the conversion or the encoding. */
export function importSummaryLines(summary: ImportSummary, intl: IntlShape): string[] {
  const lines: string[] = [];
  const choice = summary.languageChoice;
  if (choice) {
    const language = languageName(choice.language, intl);
    const overruled =
      choice.source === 'text' && choice.metadata !== null && choice.metadata !== choice.language;
    lines.push(
      overruled
        ? intl.formatMessage(
            {
              id: 'projects.importSummary.languageOverruled',
              defaultMessage: 'Language: {language} (from the text; the metadata says {metadata})',
            },
            { language, metadata: languageName(choice.metadata!, intl) },
          )
        : intl.formatMessage(
            {
              id: 'projects.importSummary.language',
              defaultMessage:
                'Language: {language} ({source, select, request {as chosen at import} text {from the text} metadata {from the file’s metadata} voice {the voice’s language} other {the default}})',
            },
            { language, source: choice.source },
          ),
    );
  }
  if (summary.legacyEncoding) {
    lines.push(
      intl.formatMessage(
        {
          id: 'projects.importSummary.converted',
          defaultMessage: 'Converted from the {encoding} encoding to Unicode',
        },
        { encoding: LEGACY_VIETNAMESE_NAMES[summary.legacyEncoding] },
      ),
    );
  } else if (summary.textEncoding && summary.textEncoding !== 'utf-8') {
    lines.push(
      intl.formatMessage(
        {
          id: 'projects.importSummary.textEncoding',
          defaultMessage: 'Read as {encoding} text (the file is not UTF-8: check its accented letters)',
        },
        { encoding: TEXT_ENCODING_NAMES[summary.textEncoding] },
      ),
    );
  }
  return lines;
}

/** The open project's import summary, until dismissed (nothing for a project not just imported). */
export function ProjectImportSummary() {
  const summary = useStudio((s) => s.importSummary);
  const projectId = useStudio((s) => s.project?.project.id);
  const dismiss = useStudio((s) => s.dismissImportSummary);
  const intl = useIntl();
  if (!summary || summary.projectId !== projectId) return null;
  const lines = importSummaryLines(summary, intl);
  if (lines.length === 0) return null;
  return (
    <div className="notice row project-import-summary" role="status">
      <div>
        <strong>
          <FormattedMessage
            id="projects.importSummary.title"
            defaultMessage="Imported “{file}”"
            values={{ file: summary.fileName }}
          />
        </strong>
        <ul>
          {lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </div>
      <button type="button" onClick={dismiss}>
        <FormattedMessage id="projects.importSummary.dismiss" defaultMessage="Dismiss" />
      </button>
    </div>
  );
}
