import { useEffect, useId, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { RATE_MAX, RATE_MIN, VOLUME_MAX, VOLUME_MIN } from '../../../../electron/shared/options';
import type { CharacterRecord } from '../../../../electron/shared/projects';
import { AuditionButton } from '../../components/AuditionButton';
import { ProjectVoiceSelect } from './ProjectVoiceSelect';
import { useAudition, type Audition } from '../../lib/useAudition';
import { useStudio } from '../../stores';
import { SliderField } from '../controls/SliderField';
import { characterName } from './project-format';

const oneDecimal = (v: number) => v.toFixed(1);
type Prosody = Pick<CharacterRecord, 'speed_rate' | 'pitch_rate' | 'volume'>;

/**
 * One character: name, voice, speed/pitch/volume (saved once the slider rests), audition,
 * confirm, remove, merge into another, split names out (by the text's attributions).
 */
function CharacterCard({
  character,
  cast,
  lines,
  suggestedLines,
  audition,
}: {
  character: CharacterRecord;
  /** The whole cast (the characters it may merge into). */
  cast: readonly CharacterRecord[];
  /** Segments it speaks. */
  lines: number;
  /** Segments the text suggests it speaks, not yet confirmed. */
  suggestedLines: number;
  audition: Audition;
}) {
  const updateCharacter = useStudio((s) => s.updateCharacter);
  const removeCharacter = useStudio((s) => s.removeCharacter);
  const mergeCharacter = useStudio((s) => s.mergeCharacter);
  const splitCharacter = useStudio((s) => s.splitCharacter);
  const [into, setInto] = useState('');
  const [splitNames, setSplitNames] = useState('');
  const id = useId();
  const intl = useIntl();
  const shown = characterName(character, intl);
  const [name, setName] = useState<string | null>(null);
  const [prosody, setProsody] = useState<Partial<Prosody>>({});
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const value = { ...character, ...prosody };
  const setValue = (key: keyof Prosody, v: number) => {
    const next = { ...prosody, [key]: v };
    setProsody(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(
      () => void updateCharacter(character.id, next).then(() => setProsody({})),
      500,
    );
  };
  const commitName = () => {
    if (name !== null && name.trim() && name.trim() !== character.name && name.trim() !== shown)
      void updateCharacter(character.id, { name: name.trim() });
    setName(null);
  };

  return (
    <li className={`character-card${character.confirmed ? '' : ' suggested'}`} aria-labelledby={`${id}-name`}>
      <div className="row">
        <label className="visually-hidden" htmlFor={`${id}-name`}>
          <FormattedMessage
            id="projects.cast.nameOf"
            defaultMessage="Name of {name}"
            values={{ name: shown }}
          />
        </label>
        <input
          id={`${id}-name`}
          type="text"
          className="character-name"
          value={name ?? shown}
          onChange={(e) => setName(e.target.value)}
          onBlur={commitName}
          onKeyDown={(e) => e.key === 'Enter' && commitName()}
        />
        {character.narrator && (
          <span className="badge accent">
            <FormattedMessage id="projects.cast.narratorBadge" defaultMessage="narrator" />
          </span>
        )}
        {!character.confirmed && (
          <span className="badge warn">
            <FormattedMessage id="projects.cast.suggestedBadge" defaultMessage="suggested" />
          </span>
        )}
        <span className="small muted">
          <FormattedMessage
            id="projects.cast.lines"
            defaultMessage="{count, plural, one {# segment} other {# segments}}"
            values={{ count: lines }}
          />
          {suggestedLines > 0 && (
            <>
              {' '}
              <FormattedMessage
                id="projects.cast.suggestedLines"
                defaultMessage="(+{count, number} suggested)"
                values={{ count: suggestedLines }}
              />
            </>
          )}
        </span>
      </div>
      <div className="field">
        <label htmlFor={`${id}-voice`}>
          <FormattedMessage
            id="projects.cast.voiceOf"
            defaultMessage="Voice of {name}"
            values={{ name: shown }}
          />
        </label>
        <div className="row nowrap">
          <ProjectVoiceSelect
            id={`${id}-voice`}
            value={character.voice_code}
            onChange={(voice_code) => void updateCharacter(character.id, { voice_code })}
          />
          <AuditionButton
            audition={audition}
            id={character.id}
            label={intl.formatMessage(
              { id: 'projects.cast.auditionLabel', defaultMessage: "{name}'s voice" },
              { name: shown },
            )}
            onToggle={() =>
              audition.toggle(character.id, character.voice_code, {
                speed_rate: value.speed_rate,
                pitch_rate: value.pitch_rate,
                volume: value.volume,
              })
            }
          />
        </div>
        {audition.error?.key === character.id && <p className="error">{audition.error.message}</p>}
      </div>
      <div className="character-sliders">
        <SliderField
          label={intl.formatMessage(
            { id: 'projects.cast.speedOf', defaultMessage: 'Speed of {name}' },
            { name: shown },
          )}
          value={value.speed_rate}
          min={RATE_MIN}
          max={RATE_MAX}
          step={0.1}
          format={oneDecimal}
          onChange={(v) => setValue('speed_rate', v)}
        />
        <SliderField
          label={intl.formatMessage(
            { id: 'projects.cast.pitchOf', defaultMessage: 'Pitch of {name}' },
            { name: shown },
          )}
          value={value.pitch_rate}
          min={RATE_MIN}
          max={RATE_MAX}
          step={0.1}
          format={oneDecimal}
          onChange={(v) => setValue('pitch_rate', v)}
        />
        <SliderField
          label={intl.formatMessage(
            { id: 'projects.cast.volumeOf', defaultMessage: 'Volume of {name}' },
            { name: shown },
          )}
          value={value.volume}
          min={VOLUME_MIN}
          max={VOLUME_MAX}
          step={1}
          onChange={(v) => setValue('volume', v)}
        />
      </div>
      {!character.narrator && (
        <div className="row">
          {!character.confirmed && (
            <button
              type="button"
              className="primary"
              onClick={() => void updateCharacter(character.id, { confirmed: true })}
            >
              <FormattedMessage
                id="projects.cast.confirm"
                defaultMessage="Confirm {name}"
                values={{ name: shown }}
              />
            </button>
          )}
          <button type="button" className="danger" onClick={() => void removeCharacter(character.id)}>
            <FormattedMessage
              id="projects.cast.remove"
              defaultMessage="Remove {name}"
              values={{ name: shown }}
            />
          </button>
        </div>
      )}
      {!character.narrator && (
        <details className="character-merge-split">
          <summary>
            <FormattedMessage id="projects.cast.mergeSplit" defaultMessage="Merge or split" />
          </summary>
          <div className="field">
            <label htmlFor={`${id}-merge`}>
              <FormattedMessage
                id="projects.cast.mergeInto"
                defaultMessage="Merge {name} into"
                values={{ name: shown }}
              />
            </label>
            <div className="row nowrap">
              <select id={`${id}-merge`} value={into} onChange={(e) => setInto(e.target.value)}>
                <option value="">
                  {intl.formatMessage({
                    id: 'projects.cast.mergeChoose',
                    defaultMessage: 'Choose a character',
                  })}
                </option>
                {cast
                  .filter((c) => !c.narrator && c.id !== character.id)
                  .map((c) => (
                    <option key={c.id} value={c.id}>
                      {characterName(c, intl)}
                    </option>
                  ))}
              </select>
              <button
                type="button"
                disabled={!into}
                onClick={() => void mergeCharacter(character.id, into).then(() => setInto(''))}
              >
                <FormattedMessage
                  id="projects.cast.merge"
                  defaultMessage="Merge {name}"
                  values={{ name: shown }}
                />
              </button>
            </div>
          </div>
          <div className="field">
            <label htmlFor={`${id}-split`}>
              <FormattedMessage
                id="projects.cast.splitNames"
                defaultMessage="Names to split out of {name} (comma between them)"
                values={{ name: shown }}
              />
            </label>
            <div className="row nowrap">
              <input
                id={`${id}-split`}
                type="text"
                value={splitNames}
                onChange={(e) => setSplitNames(e.target.value)}
              />
              <button
                type="button"
                disabled={!splitNames.trim()}
                onClick={() =>
                  void splitCharacter(
                    character.id,
                    splitNames
                      .split(/[,;]/)
                      .map((n) => n.trim())
                      .filter(Boolean),
                  ).then(() => setSplitNames(''))
                }
              >
                <FormattedMessage
                  id="projects.cast.split"
                  defaultMessage="Split {name}"
                  values={{ name: shown }}
                />
              </button>
            </div>
          </div>
        </details>
      )}
    </li>
  );
}

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
