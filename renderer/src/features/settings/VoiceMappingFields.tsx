import { useId } from 'react';
import {
  ALIAS_CODE_PATTERN,
  checkAliasTarget,
  type UnknownVoicePolicy,
} from '../../../../electron/shared/voice-mapping';
import { VOICES } from '../../../../electron/shared/voices';

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
): { aliases: Record<string, string> } | { problem: string } {
  const aliases: Record<string, string> = {};
  for (const [i, row] of rows.entries()) {
    const code = row.code.trim();
    if (!new RegExp(ALIAS_CODE_PATTERN).test(code))
      return { problem: `Row ${i + 1}: a voice code of 1–200 characters, without spaces or "=".` };
    if (Object.hasOwn(aliases, code)) return { problem: `Row ${i + 1}: "${code}" is in the table twice.` };
    try {
      aliases[code] = checkAliasTarget(code, row.voice);
    } catch (error) {
      return { problem: `Row ${i + 1}: ${(error as Error).message}.` };
    }
  }
  return { aliases };
}

const POLICIES: Record<UnknownVoicePolicy, string> = {
  refuse: 'Refuse them (UNKNOWN_VOICE, as the service does)',
  closest: 'Speak them with our closest voice',
};

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
  const { rows, onRows } = props;
  const setRow = (at: number, change: Partial<AliasRow>) =>
    onRows(rows.map((row, i) => (i === at ? { ...row, ...change } : row)));
  return (
    <fieldset className="field" style={{ border: 0, padding: 0, margin: '4px 0 12px' }}>
      <legend className="field-label" style={{ marginBottom: 6 }}>
        Voice codes of other services
      </legend>
      <div className="field" style={{ maxWidth: 520 }}>
        <label htmlFor={`${id}-unknown`}>A voice code that is not ours</label>
        <select
          id={`${id}-unknown`}
          value={props.unknownVoices}
          disabled={props.disabled}
          aria-describedby={`${id}-unknown-hint`}
          onChange={(e) => props.onUnknownVoices(e.target.value as UnknownVoicePolicy)}
        >
          {Object.entries(POLICIES).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <p className="hint" id={`${id}-unknown-hint`}>
          Closest: the language, region and gender the code’s words name (<code>hn_</code>, <code>sg_</code>,{' '}
          <code>vi</code>, <code>female</code>, …); the request keeps the code sent, and its details name the
          voice that spoke. A code with no clue is still refused.
          {props.running &&
            ` This run: ${props.running.unknownVoices}, ${props.running.aliases} alias${props.running.aliases === 1 ? '' : 'es'}.`}
        </p>
      </div>
      <table className="data" aria-label="Voice aliases">
        <thead>
          <tr>
            <th scope="col">Their voice code</th>
            <th scope="col">Spoken by our voice</th>
            <th scope="col">
              <span className="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={3} className="hint">
                No aliases.
              </td>
            </tr>
          )}
          {rows.map((row, i) => (
            <tr key={i}>
              <td>
                <input
                  type="text"
                  spellCheck={false}
                  aria-label={`Their voice code, row ${i + 1}`}
                  placeholder="hn_female_ngochuyen_full_48k-fhg"
                  value={row.code}
                  disabled={props.disabled}
                  onChange={(e) => setRow(i, { code: e.target.value })}
                  style={{ width: '100%' }}
                />
              </td>
              <td>
                <select
                  aria-label={`Our voice, row ${i + 1}`}
                  value={row.voice}
                  disabled={props.disabled}
                  onChange={(e) => setRow(i, { voice: e.target.value })}
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
                  disabled={props.disabled}
                  aria-label={`Remove row ${i + 1}`}
                  onClick={() => onRows(rows.filter((_, j) => j !== i))}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="row" style={{ gap: 12, alignItems: 'center', marginTop: 8 }}>
        <button
          type="button"
          disabled={props.disabled}
          onClick={() => onRows([...rows, { code: '', voice: VOICES[0]!.voice_code }])}
        >
          Add alias
        </button>
        <p className="hint">
          An alias speaks exactly that code with the voice chosen; aliases win over closest.
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
