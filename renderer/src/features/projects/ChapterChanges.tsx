import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { PROJECT_LIMITS, type ChapterRecord } from '../../../../electron/shared/projects';
import { errorMessage } from '../../lib/api-client';
import { diffParagraphs, type DiffLine } from '../../lib/text-diff';
import { useProjectsApi } from '../../stores';

/** What changed in a chapter since its last export: paragraphs removed, added, kept. */
export function ChapterChanges({
  chapter,
  projectId,
  onClose,
}: {
  chapter: Pick<ChapterRecord, 'id' | 'title'>;
  projectId: string;
  onClose(): void;
}) {
  const api = useProjectsApi();
  const intl = useIntl();
  const [lines, setLines] = useState<DiffLine[] | null>(null);
  const [neverExported, setNeverExported] = useState(false);
  const [truncated, setTruncated] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.chapterChanges(projectId, chapter.id).then(
      (changes) => {
        if (!live) return;
        setNeverExported(changes.exported_text === null);
        setTruncated(changes.truncated);
        setLines(diffParagraphs(changes.exported_text ?? '', changes.text));
      },
      (e: unknown) => live && setError(errorMessage(e)),
    );
    return () => {
      live = false;
    };
  }, [api, projectId, chapter.id]);
  const changed = lines?.filter((l) => l.kind !== 'same') ?? [];
  return (
    <section
      className="chapter-changes"
      aria-label={intl.formatMessage(
        { id: 'projects.changes.label', defaultMessage: 'Changes in {title}' },
        { title: chapter.title },
      )}
    >
      <div className="panel-head">
        <h3>
          <FormattedMessage id="projects.changes.title" defaultMessage="Changed since export" />
        </h3>
        <button type="button" onClick={onClose}>
          <FormattedMessage id="projects.changes.close" defaultMessage="Close" />
        </button>
      </div>
      {error && <p className="error">{error}</p>}
      {neverExported && (
        <p className="hint">
          <FormattedMessage
            id="projects.changes.neverExported"
            defaultMessage="Never exported: all of it is new."
          />
        </p>
      )}
      {truncated && (
        <p className="hint">
          <FormattedMessage
            id="projects.changes.truncated"
            defaultMessage="This chapter is long: only the changes in its first {count, number} characters are shown."
            values={{ count: PROJECT_LIMITS.changesCharacters }}
          />
        </p>
      )}
      {lines && !neverExported && changed.length === 0 && (
        <p className="hint">
          <FormattedMessage id="projects.changes.none" defaultMessage="No paragraph differs." />
        </p>
      )}
      {!neverExported && (
        <ul className="diff">
          {changed.map((line, i) => (
            <li key={i} className={line.kind}>
              <span className="visually-hidden">
                {line.kind === 'added' ? (
                  <FormattedMessage id="projects.changes.added" defaultMessage="Added:" />
                ) : (
                  <FormattedMessage id="projects.changes.removed" defaultMessage="Removed:" />
                )}{' '}
              </span>
              {line.kind === 'added' ? '+ ' : '− '}
              {line.text}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
