import { useId, useState } from 'react';
import type { ProjectRecord } from '../../../../electron/shared/projects';
import { FormattedMessage, useIntl } from 'react-intl';
import { useStudio } from '../../stores';

/**
 * The book's spoken structure (ACX asks for both; on by default for the ACX preset): each chapter's
 * heading read aloud at its start, and opening and closing credits (title, author, narrator; "The
 * end." and the copyright line) as the export's first and last chapters. The credits' words are
 * made in the book's language from the fields here unless edited; an emptied text is made again.
 */
export function SpokenStructure() {
  const project = useStudio((s) => s.project)!.project;
  const update = useStudio((s) => s.updateProject);
  const id = useId();
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <div className="panel-head">
        <h2 id={`${id}-title`}>
          <FormattedMessage id="projects.spoken.title" defaultMessage="Spoken headings and credits" />
        </h2>
      </div>
      <div className="row spoken-switches">
        <label className="check">
          <input
            type="checkbox"
            checked={project.speak_headings}
            onChange={(e) => void update({ speak_headings: e.target.checked })}
          />
          <FormattedMessage
            id="projects.spoken.speakHeadings"
            defaultMessage="Read each chapter's heading aloud at its start"
          />
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={project.credits}
            onChange={(e) => void update({ credits: e.target.checked })}
          />
          <FormattedMessage id="projects.spoken.credits" defaultMessage="Opening and closing credits" />
        </label>
      </div>
      {project.credits && (
        // Keyed by what the server answers: a made text changes with the fields it is made from.
        <CreditsForm
          key={[
            project.narrator_name,
            project.copyright,
            project.opening_credits,
            project.closing_credits,
          ].join('\n')}
          project={project}
        />
      )}
    </section>
  );
}

/** The credits' fields and words, saved together. */
function CreditsForm({ project }: { project: ProjectRecord }) {
  const update = useStudio((s) => s.updateProject);
  const intl = useIntl();
  const id = useId();
  const [narrator, setNarrator] = useState(project.narrator_name ?? '');
  const [copyright, setCopyright] = useState(project.copyright ?? '');
  const [opening, setOpening] = useState(project.opening_credits);
  const [closing, setClosing] = useState(project.closing_credits);

  const save = () =>
    void update({
      narrator_name: narrator.trim() || null,
      copyright: copyright.trim() || null,
      // An unedited text goes back as null, so that it follows the fields it is made from.
      opening_credits:
        project.opening_credits_edited || opening !== project.opening_credits ? opening.trim() || null : null,
      closing_credits:
        project.closing_credits_edited || closing !== project.closing_credits ? closing.trim() || null : null,
    });

  return (
    <form
      className="spoken-credits"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <div className="row spoken-names">
        <div className="field">
          <label htmlFor={`${id}-narrator`}>
            <FormattedMessage id="projects.spoken.narratorName" defaultMessage="Narrated by" />
          </label>
          <input
            id={`${id}-narrator`}
            type="text"
            maxLength={500}
            value={narrator}
            onChange={(e) => setNarrator(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-copyright`}>
            <FormattedMessage id="projects.spoken.copyright" defaultMessage="Copyright line" />
          </label>
          <input
            id={`${id}-copyright`}
            type="text"
            maxLength={1000}
            placeholder={intl.formatMessage({
              id: 'projects.spoken.copyrightExample',
              defaultMessage: 'Copyright 2026 by the author',
            })}
            value={copyright}
            onChange={(e) => setCopyright(e.target.value)}
          />
        </div>
      </div>
      <div className="field">
        <label htmlFor={`${id}-opening`}>
          <FormattedMessage id="projects.spoken.opening" defaultMessage="Opening credits (read aloud)" />
        </label>
        <textarea
          id={`${id}-opening`}
          rows={2}
          value={opening}
          onChange={(e) => setOpening(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-closing`}>
          <FormattedMessage id="projects.spoken.closing" defaultMessage="Closing credits (read aloud)" />
        </label>
        <textarea
          id={`${id}-closing`}
          rows={2}
          value={closing}
          onChange={(e) => setClosing(e.target.value)}
        />
      </div>
      <p className="small muted">
        <FormattedMessage
          id="projects.spoken.madeHint"
          defaultMessage="Empty a text to make it again from the title, author, narrator and copyright line."
        />
      </p>
      <button type="submit" className="primary">
        <FormattedMessage id="common.save" defaultMessage="Save" />
      </button>
    </form>
  );
}
