import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { useProjectsApi } from '../../stores';

/** A project's cover, or its initials on a coloured square when it has none (or it cannot be read). */
export function ProjectCover({
  projectId,
  title,
  hasCover,
  version,
  size = 56,
}: {
  projectId: string;
  title: string;
  hasCover: boolean;
  /** Changes when the cover may have changed (the project's updated_at). */
  version: string;
  size?: number;
}) {
  const api = useProjectsApi();
  const intl = useIntl();
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!hasCover) return;
    let live = true;
    let made: string | null = null;
    void api.cover(projectId).then((blob) => {
      if (!live || !blob || !blob.type.startsWith('image/')) return;
      made = URL.createObjectURL(blob);
      setUrl(made);
    });
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
      setUrl(null);
    };
  }, [api, projectId, hasCover, version]);
  const style = { width: size, height: size };
  if (url)
    return (
      <img
        className="project-cover"
        src={url}
        alt={intl.formatMessage({ id: 'projects.cover.alt', defaultMessage: 'Cover of {title}' }, { title })}
        style={style}
      />
    );
  const initials = title
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => Array.from(w)[0]!.toUpperCase())
    .join('');
  return (
    <span className="project-cover placeholder" style={style} aria-hidden="true">
      {initials || '♪'}
    </span>
  );
}
