import { useId } from 'react';
import {
  defineMessages,
  FormattedMessage,
  useIntl,
  type IntlShape,
  type MessageDescriptor,
} from 'react-intl';
import {
  ALIAS_CODE_PATTERN,
  aliasProblemOf,
  type UnknownVoicePolicy,
} from '../../../../electron/shared/voice-mapping';
import { VOICES } from '../../../../electron/shared/voices';

/** A row's problem, in the interface's language (shared/voice-mapping.ts aliasProblemOf). */
const ALIAS_PROBLEMS: Record<'own_code' | 'unknown_target', MessageDescriptor> = defineMessages({
  own_code: {
    id: 'settings.aliases.ownCode',
    defaultMessage: 'Row {row}: “{code}” is already one of our voice codes: it needs no alias.',
  },
  unknown_target: {
    id: 'settings.aliases.unknownTarget',
    defaultMessage: 'Row {row}: “{voice}” (the voice for “{code}”) is not one of our voices.',
  },
});

/** One row of the alias table as typed: a client's code and our voice. */
export interface AliasRow {
  code: string;
  voice: string;
}

export function aliasRowsOf(aliases: Readonly<Record<string, string>>): AliasRow[] {
  return Object.entries(aliases).map(([code, voice]) => ({ code, voice }));
}

/** The table as the API takes it, or the first row's problem (1-based row number). */
export function aliasesOf(
  rows: readonly AliasRow[],
  intl: IntlShape,
): { aliases: Record<string, string> } | { problem: string } {
  const aliases: Record<string, string> = {};
  for (const [i, row] of rows.entries()) {
    const code = row.code.trim();
    if (!new RegExp(ALIAS_CODE_PATTERN).test(code))
      return {
        problem: intl.formatMessage(
          {
            id: 'settings.aliases.badCode',
            defaultMessage: 'Row {row}: a voice code of 1–200 characters, without spaces or "=".',
          },
          { row: i + 1 },
        ),
      };
    if (Object.hasOwn(aliases, code))
      return {
        problem: intl.formatMessage(
          { id: 'settings.aliases.twice', defaultMessage: 'Row {row}: "{code}" is in the table twice.' },
          { row: i + 1, code },
        ),
      };
    const problem = aliasProblemOf(code, row.voice);
    if (problem)
      return {
        problem: intl.formatMessage(ALIAS_PROBLEMS[problem], { row: i + 1, code, voice: row.voice }),
      };
    aliases[code] = row.voice;
  }
  return { aliases };
}

const POLICIES = defineMessages<UnknownVoicePolicy>({
  refuse: {
    id: 'settings.aliases.policy.refuse',
    defaultMessage: 'Refuse them (UNKNOWN_VOICE, as the service does)',
  },
  closest: { id: 'settings.aliases.policy.closest', defaultMessage: 'Speak them with our closest voice' },
});

/** The policy in a few words, inside the sentence that says what this run uses. */
const POLICY_NAMES = defineMessages<UnknownVoicePolicy>({
  refuse: { id: 'settings.aliases.policyName.refuse', defaultMessage: 'unknown codes refused' },
  closest: { id: 'settings.aliases.policyName.closest', defaultMessage: 'closest voice' },
});

/**
 * What the server does with a voice_code that is not ours (the cloud service's clients send its
 * own codes): refuse, or speak it with the closest voice; and exact mappings, which win.
 */
export function VoiceMappingFields(props: {
  unknownVoices: UnknownVoicePolicy;
  rows: readonly AliasRow[];
  problem: string | undefined;
  disabled: boolean;
  /** What this run uses, when known (it changes at the next start). */
  running: { unknownVoices: UnknownVoicePolicy; aliases: number } | undefined;
  onUnknownVoices(value: UnknownVoicePolicy): void;
  onRows(rows: AliasRow[]): void;
}) {
  const id = useId();
  const intl = useIntl();
  const { rows, onRows } = props;
  const setRow = (at: number, change: Partial<AliasRow>) =>
    onRows(rows.map((row, i) => (i === at ? { ...row, ...change } : row)));
  return (
    <fieldset className="field" style={{ border: 0, padding: 0, margin: '4px 0 12px' }}>
      <legend className="field-label" style={{ marginBottom: 6 }}>
        <FormattedMessage id="settings.aliases.legend" defaultMessage="Voice codes of other services" />
      </legend>
      <div className="field" style={{ maxWidth: 520 }}>
        <label htmlFor={`${id}-unknown`}>
          <FormattedMessage id="settings.aliases.unknown" defaultMessage="A voice code that is not ours" />
        </label>
        <select
          id={`${id}-unknown`}
          value={props.unknownVoices}
          disabled={props.disabled}
          aria-describedby={`${id}-unknown-hint`}
          onChange={(e) => props.onUnknownVoices(e.target.value as UnknownVoicePolicy)}
        >
          {Object.entries(POLICIES).map(([value, label]) => (
            <option key={value} value={value}>
              {intl.formatMessage(label)}
            </option>
          ))}
        </select>
        <p className="hint" id={`${id}-unknown-hint`}>
          <FormattedMessage
            id="settings.aliases.unknown.hint"
            defaultMessage="Closest: the language, region and gender the code’s words name (<code>hn_</code>, <code>sg_</code>, <code>vi</code>, <code>female</code>, …); the request keeps the code sent, and its details name the voice that spoke. A code with no clue is still refused."
            values={{ code: (chunks) => <code>{chunks}</code> }}
          />
          {props.running && ' '}
          {props.running && (
            <FormattedMessage
              id="settings.aliases.thisRun"
              defaultMessage="This run: {policy}, {count, plural, one {# alias} other {# aliases}}."
              values={{
                policy: intl.formatMessage(POLICY_NAMES[props.running.unknownVoices]),
                count: props.running.aliases,
              }}
            />
          )}
        </p>
      </div>
      <table
        className="data"
        aria-label={intl.formatMessage({ id: 'settings.aliases.table', defaultMessage: 'Voice aliases' })}
      >
        <thead>
          <tr>
            <th scope="col">
              <FormattedMessage id="settings.aliases.theirCode" defaultMessage="Their voice code" />
            </th>
            <th scope="col">
              <FormattedMessage id="settings.aliases.ourVoice" defaultMessage="Spoken by our voice" />
            </th>
            <th scope="col">
              <span className="visually-hidden">
                <FormattedMessage id="common.remove" defaultMessage="Remove" />
              </span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={3} className="hint">
                <FormattedMessage id="settings.aliases.none" defaultMessage="No aliases." />
              </td>
            </tr>
          )}
          {rows.map((row, i) => (
            <AliasRowFields
              key={i}
              row={row}
              i={i}
              disabled={props.disabled}
              onChange={(change) => setRow(i, change)}
              onRemove={() => onRows(rows.filter((_, j) => j !== i))}
            />
          ))}
        </tbody>
      </table>
      <div className="row" style={{ gap: 12, alignItems: 'center', marginTop: 8 }}>
        <button
          type="button"
          disabled={props.disabled}
          onClick={() => onRows([...rows, { code: '', voice: VOICES[0]!.voice_code }])}
        >
          <FormattedMessage id="settings.aliases.add" defaultMessage="Add alias" />
        </button>
        <p className="hint">
          <FormattedMessage
            id="settings.aliases.add.hint"
            defaultMessage="An alias speaks exactly that code with the voice chosen; aliases win over closest."
          />
        </p>
      </div>
      {props.problem && (
        <p className="error" role="alert">
          {props.problem}
        </p>
      )}
    </fieldset>
  );
}

/** One alias: their voice code, our voice that speaks it, Remove. */
function AliasRowFields({
  row,
  i,
  disabled,
  onChange,
  onRemove,
}: {
  row: AliasRow;
  i: number;
  disabled: boolean;
  onChange(change: Partial<AliasRow>): void;
  onRemove(): void;
}) {
  const intl = useIntl();
  return (
    <tr>
      <td>
        <input
          type="text"
          spellCheck={false}
          aria-label={intl.formatMessage(
            { id: 'settings.aliases.theirCode.row', defaultMessage: 'Their voice code, row {row}' },
            { row: i + 1 },
          )}
          // eslint-disable-next-line messages/no-words-in-jsx -- a voice code, not words
          placeholder="hn_female_ngochuyen_full_48k-fhg"
          value={row.code}
          disabled={disabled}
          onChange={(e) => onChange({ code: e.target.value })}
          style={{ width: '100%' }}
        />
      </td>
      <td>
        <select
          aria-label={intl.formatMessage(
            { id: 'settings.aliases.ourVoice.row', defaultMessage: 'Our voice, row {row}' },
            { row: i + 1 },
          )}
          value={row.voice}
          disabled={disabled}
          onChange={(e) => onChange({ voice: e.target.value })}
        >
          {VOICES.map((v) => (
            <option key={v.voice_code} value={v.voice_code}>
              {v.name} ({v.voice_code})
            </option>
          ))}
        </select>
      </td>
      <td>
        <button
          type="button"
          className="link"
          disabled={disabled}
          aria-label={intl.formatMessage(
            { id: 'settings.aliases.remove.row', defaultMessage: 'Remove row {row}' },
            { row: i + 1 },
          )}
          onClick={onRemove}
        >
          <FormattedMessage id="common.remove" defaultMessage="Remove" />
        </button>
      </td>
    </tr>
  );
}
