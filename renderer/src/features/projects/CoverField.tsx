import { useRef, useState } from 'react';
import { defineMessages, FormattedMessage, useIntl, type MessageDescriptor } from 'react-intl';
import type { ProjectSettings } from '../../../../electron/shared/projects';
import { readBase64 } from '../../lib/read-file';
import { useStudio } from '../../stores';

const COVER_ERRORS = defineMessages({
  type: { id: 'projects.settings.cover.type', defaultMessage: 'The cover must be a JPEG or PNG picture.' },
  size: { id: 'projects.settings.cover.size', defaultMessage: 'The cover must be at most 2 MiB.' },
});
const MAX_COVER_BYTES = 2 * 1024 * 1024;

/** The book's cover: choose (JPEG or PNG, at most 2 MiB), change or remove it. */
export function CoverField() {
  const project = useStudio((s) => s.project!.project);
  const update = useStudio((s) => s.updateProject);
  const intl = useIntl();
  const coverInput = useRef<HTMLInputElement>(null);
  const [coverError, setCoverError] = useState<MessageDescriptor | null>(null);
  const save = (settings: ProjectSettings) => void update(settings);

  const chooseCover = async (file: File | undefined) => {
    setCoverError(null);
    if (!file) return;
    if (!/^image\/(jpeg|png)$/.test(file.type)) return setCoverError(COVER_ERRORS.type);
    if (file.size > MAX_COVER_BYTES) return setCoverError(COVER_ERRORS.size);
    save({ cover: await readBase64(file) });
  };

  return (
    <div className="field">
      <span className="field-label">
        <FormattedMessage id="projects.settings.cover" defaultMessage="Cover" />
      </span>
      <div className="row">
        <input
          ref={coverInput}
          type="file"
          accept="image/jpeg,image/png"
          className="visually-hidden"
          tabIndex={-1}
          aria-label={intl.formatMessage({
            id: 'projects.settings.coverFile',
            defaultMessage: 'Book cover (JPEG or PNG, at most 2 MiB)',
          })}
          onChange={(e) => void chooseCover(e.target.files?.[0])}
        />
        <button type="button" onClick={() => coverInput.current?.click()}>
          {project.has_cover ? (
            <FormattedMessage id="projects.settings.changeCover" defaultMessage="Change cover…" />
          ) : (
            <FormattedMessage id="projects.settings.chooseCover" defaultMessage="Choose cover…" />
          )}
        </button>
        {project.has_cover && (
          <button type="button" className="link" onClick={() => save({ cover: null })}>
            <FormattedMessage id="projects.settings.removeCover" defaultMessage="Remove cover" />
          </button>
        )}
      </div>
      {coverError && <p className="error">{intl.formatMessage(coverError)}</p>}
    </div>
  );
}
