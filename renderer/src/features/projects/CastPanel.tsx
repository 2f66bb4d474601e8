import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ProjectVoiceSelect } from './ProjectVoiceSelect';
import { useAudition } from '../../lib/useAudition';
import { useStudio } from '../../stores';
import { CharacterCard } from './CharacterCard';

/**
 * The cast: the narrator and each character with a voice and its prosody (auditioned here), the
 * characters the text's attributions suggest to confirm, and a form to add one.
 */
export function CastPanel() {
  const detail = useStudio((s) => s.project)!;
  const addCharacter = useStudio((s) => s.addCharacter);
  const applySuggestions = useStudio((s) => s.applySuggestions);
  const audition = useAudition();
  const id = useId();
  const intl = useIntl();
  const narrator = detail.characters.find((c) => c.narrator);
  const [name, setName] = useState('');
  const [voice, setVoice] = useState(narrator?.voice_code ?? '');

  // The segments each speaks and has suggested, as the server counts them (no segment is read here).
  const pending = detail.characters.reduce((n, c) => n + c.suggested, 0);
  const ordered = [...detail.characters].sort(
    (a, b) => Number(b.narrator) - Number(a.narrator) || Number(b.confirmed) - Number(a.confirmed),
  );

  return (
    <section className="panel cast-panel" aria-labelledby={`${id}-title`}>
      <div className="panel-head">
        <h2 id={`${id}-title`}>
          <FormattedMessage id="projects.cast.title" defaultMessage="Cast" />
        </h2>
        {pending > 0 && (
          <button type="button" className="primary" onClick={() => void applySuggestions()}>
            <FormattedMessage
              id="projects.cast.apply"
              defaultMessage="Apply {count, plural, one {# suggested speaker} other {# suggested speakers}}"
              values={{ count: pending }}
            />
          </button>
        )}
      </div>
      <p className="hint">
        <FormattedMessage
          id="projects.cast.hint"
          defaultMessage="Quoted speech with an attribution (“…,” said Anna) suggests its speaker. Confirm the suggestions here, or assign speakers per segment and per quotation in the segment list."
        />
      </p>
      <ul
        className="cast-list"
        aria-label={intl.formatMessage({ id: 'projects.cast.characters', defaultMessage: 'Characters' })}
      >
        {ordered.map((c) => (
          <CharacterCard
            key={c.id}
            character={c}
            cast={detail.characters}
            lines={c.segments}
            suggestedLines={c.suggested}
            audition={audition}
          />
        ))}
      </ul>
      <form
        className="add-character"
        aria-label={intl.formatMessage({ id: 'projects.cast.addForm', defaultMessage: 'Add a character' })}
        onSubmit={(e) => {
          e.preventDefault();
          if (!name.trim() || !voice) return;
          void addCharacter({ name: name.trim(), voice_code: voice });
          setName('');
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-new-name`}>
            <FormattedMessage id="projects.cast.newName" defaultMessage="New character" />
          </label>
          <input id={`${id}-new-name`} type="text" value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-new-voice`}>
            <FormattedMessage id="projects.cast.newVoice" defaultMessage="Their voice" />
          </label>
          <ProjectVoiceSelect id={`${id}-new-voice`} value={voice} onChange={setVoice} />
        </div>
        <button type="submit" className="primary" disabled={!name.trim()}>
          <FormattedMessage id="projects.cast.add" defaultMessage="Add character" />
        </button>
      </form>
    </section>
  );
}
