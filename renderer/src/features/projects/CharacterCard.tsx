import { useEffect, useId, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { RATE_MAX, RATE_MIN, VOLUME_MAX, VOLUME_MIN } from '../../../../electron/shared/options';
import type { CharacterRecord } from '../../../../electron/shared/projects';
import { AuditionButton } from '../../components/AuditionButton';
import type { Audition } from '../../lib/useAudition';
import { useStudio } from '../../stores';
import { SliderField } from '../controls/SliderField';
import { CharacterMergeSplit } from './CharacterMergeSplit';
import { characterName } from './project-format';
import { ProjectVoiceSelect } from './ProjectVoiceSelect';

/** A character's name (edited in place), its narrator and suggested badges, and how many segments it speaks. */
function CharacterHead({
  id,
  character,
  shown,
  lines,
  suggestedLines,
}: {
  id: string;
  character: CharacterRecord;
  /** Its name as shown. */
  shown: string;
  lines: number;
  suggestedLines: number;
}) {
  const updateCharacter = useStudio((s) => s.updateCharacter);
  const [name, setName] = useState<string | null>(null);
  const commitName = () => {
    if (name !== null && name.trim() && name.trim() !== character.name && name.trim() !== shown)
      void updateCharacter(character.id, { name: name.trim() });
    setName(null);
  };

  return (
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
  );
}

const oneDecimal = (v: number) => v.toFixed(1);
type Prosody = Pick<CharacterRecord, 'speed_rate' | 'pitch_rate' | 'volume'>;

/**
 * One character: name, voice, speed/pitch/volume (saved once the slider rests), audition,
 * confirm, remove, merge into another, split names out (by the text's attributions).
 */
export function CharacterCard({
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
  const id = useId();
  const intl = useIntl();
  const shown = characterName(character, intl);
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
  return (
    <li className={`character-card${character.confirmed ? '' : ' suggested'}`} aria-labelledby={`${id}-name`}>
      <CharacterHead
        id={id}
        character={character}
        shown={shown}
        lines={lines}
        suggestedLines={suggestedLines}
      />
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
      {!character.narrator && <CharacterMergeSplit character={character} cast={cast} shown={shown} />}
    </li>
  );
}
