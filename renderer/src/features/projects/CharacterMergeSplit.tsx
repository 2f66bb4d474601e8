import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { CharacterRecord } from '../../../../electron/shared/projects';
import { useStudio } from '../../stores';
import { characterName } from './project-format';

/** Merges a character into another, or splits names out of it (each undoable), folded under "Merge or split". */
export function CharacterMergeSplit({
  character,
  cast,
  shown,
}: {
  character: CharacterRecord;
  /** The whole cast (the characters it may merge into). */
  cast: readonly CharacterRecord[];
  /** Its name as shown. */
  shown: string;
}) {
  const mergeCharacter = useStudio((s) => s.mergeCharacter);
  const splitCharacter = useStudio((s) => s.splitCharacter);
  const [into, setInto] = useState('');
  const [splitNames, setSplitNames] = useState('');
  const id = useId();
  const intl = useIntl();
  return (
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
  );
}
