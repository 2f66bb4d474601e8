/**
 * The project view's offer to re-cast (issue 38): when a voice of the cast (the narrator's or a
 * character's catalogue voice) speaks another language than the book's, one click re-voices them
 * in the book's language (PATCH …/projects/<id> with `recast`, one undo step).
 */

import { FormattedMessage } from 'react-intl';
import type { ProjectDetail } from '../../../../electron/shared/projects';
import { findVoice, VOICES } from '../../../../electron/shared/voices';
import { useStudio } from '../../stores';

/**
 * The names of the cast whose catalogue voices speak another language than the book's (custom
 * voices, which a re-cast keeps, are not counted; nor a language without catalogue voices).
 */
export function castInOtherLanguages(detail: ProjectDetail): string[] {
  const language = detail.project.language;
  if (!VOICES.some((v) => v.language === language)) return [];
  return detail.characters
    .filter((c) => {
      const voice = findVoice(c.voice_code);
      return voice !== undefined && voice.language !== language;
    })
    .map((c) => c.name);
}

export function ProjectRecastOffer() {
  const detail = useStudio((s) => s.project)!;
  const update = useStudio((s) => s.updateProject);
  const names = castInOtherLanguages(detail);
  if (names.length === 0) return null;
  return (
    <div className="notice row project-recast-offer" role="status">
      <span>
        <FormattedMessage
          id="projects.recast.notice"
          defaultMessage="{count, plural, one {# voice of the cast speaks} other {# voices of the cast speak}} another language than the book's."
          values={{ count: names.length }}
        />
      </span>
      <button type="button" onClick={() => void update({ recast: true })}>
        <FormattedMessage id="projects.recast.button" defaultMessage="Re-cast in the book's language" />
      </button>
    </div>
  );
}
