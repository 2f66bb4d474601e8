import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { MAX_BLEND_PARTS } from '../../../../electron/shared/custom-voices';
import type { VoicePackInfo } from '../../../../electron/shared/voice-packs';
import { findVoice, VOICES } from '../../../../electron/shared/voices';
import { VoiceSelect } from '../../components/VoiceSelect';
import { blendShares } from '../../lib/voice-codes';
import { useStudio } from '../../stores';
import type { CustomVoiceDraft } from './custom-voice-draft';
import type { UpdateDraft } from './custom-voice-form-state';

/** Installed packs' speakers as choices: a Piper pack's speakers (or the pack alone), a Kokoro pack's voices. */
function speakerChoices(pack: VoicePackInfo, intl: IntlShape): { value: string; label: string }[] {
  if (pack.num_speakers <= 1 && pack.family === 'piper')
    return [
      {
        value: '',
        label: intl.formatMessage({ id: 'voices.form.speaker.single', defaultMessage: 'its one speaker' }),
      },
    ];
  return pack.speakers.map((name, i) => ({ value: name, label: pack.speaker_labels[i] ?? name }));
}

interface FieldsProps {
  /** The form's id prefix. */
  id: string;
  draft: CustomVoiceDraft;
  update: UpdateDraft;
}

/** The base voice: its kind, then a catalogue voice, a pack's speaker or a Kokoro blend, and the catalogue voice behind it. */
export function BaseVoiceFields({ id, draft, update }: FieldsProps) {
  const intl = useIntl();
  const packs = useStudio((s) => s.voicePacks);
  const installed = packs.filter((p) => p.state === 'installed');
  return (
    <fieldset className="field custom-voice-base">
      <legend className="field-label">
        <FormattedMessage id="voices.form.base" defaultMessage="Base voice" />
      </legend>
      <div
        className="segmented"
        role="radiogroup"
        aria-label={intl.formatMessage({
          id: 'voices.form.base.kind',
          defaultMessage: 'Kind of base voice',
        })}
      >
        {(
          [
            ['code', intl.formatMessage({ id: 'voices.form.base.catalogue', defaultMessage: 'Catalogue' })],
            ['pack', intl.formatMessage({ id: 'voices.form.base.pack', defaultMessage: 'Installed pack' })],
            [
              'kokoro_blend',
              intl.formatMessage({ id: 'voices.form.base.blend', defaultMessage: 'Kokoro blend' }),
            ],
          ] as const
        ).map(([kind, label]) => (
          <label key={kind}>
            <input
              type="radio"
              name={`${id}-kind`}
              checked={draft.kind === kind}
              onChange={() => update({ kind })}
            />
            {label}
          </label>
        ))}
      </div>
      {draft.kind === 'code' && (
        <div className="field">
          <label htmlFor={`${id}-base-code`}>
            <FormattedMessage id="voices.form.base.catalogueVoice" defaultMessage="Catalogue voice" />
          </label>
          <VoiceSelect
            id={`${id}-base-code`}
            catalogueOnly
            value={draft.baseCode}
            onChange={(baseCode) => update({ baseCode })}
          />
        </div>
      )}
      {draft.kind === 'pack' && <PackFields id={id} draft={draft} update={update} installed={installed} />}
      {draft.kind === 'kokoro_blend' && (
        <BlendFields id={id} draft={draft} update={update} installed={installed} />
      )}
      {draft.kind !== 'code' && (
        <div className="field">
          <label htmlFor={`${id}-fallback`}>
            <FormattedMessage id="voices.form.fallback" defaultMessage="Catalogue voice behind it" />
          </label>
          <VoiceSelect
            id={`${id}-fallback`}
            catalogueOnly
            value={draft.fallback}
            onChange={(fallback) => update({ fallback })}
          />
          <p className="hint">
            <FormattedMessage
              id="voices.form.fallback.hint"
              defaultMessage="Of the same language: its price and text preparation apply, and it speaks when the pack is not installed."
            />
          </p>
        </div>
      )}
    </fieldset>
  );
}

/** An installed pack and its speaker (none installed: where to install one). */
function PackFields({ id, draft, update, installed }: FieldsProps & { installed: VoicePackInfo[] }) {
  const intl = useIntl();
  const pack = installed.find((p) => p.id === draft.packId);
  const choosePack = (packId: string) => {
    const chosen = installed.find((p) => p.id === packId);
    const language = chosen?.languages[0];
    const fallback =
      findVoice(draft.fallback)?.language === language
        ? draft.fallback
        : (VOICES.find((v) => v.language === language)?.voice_code ?? draft.fallback);
    update({ packId, speaker: chosen ? (speakerChoices(chosen, intl)[0]?.value ?? '') : '', fallback });
  };
  if (installed.length === 0)
    return (
      <p className="hint">
        <FormattedMessage
          id="voices.form.pack.none"
          defaultMessage="No voice pack is installed: install one in the Voice library first."
        />
      </p>
    );
  return (
    <div className="custom-voice-grid">
      <div className="field">
        <label htmlFor={`${id}-pack`}>
          <FormattedMessage id="voices.form.pack" defaultMessage="Pack" />
        </label>
        <select id={`${id}-pack`} value={draft.packId} onChange={(e) => choosePack(e.target.value)}>
          <option value="">
            {intl.formatMessage({ id: 'voices.form.pack.choose', defaultMessage: 'Choose a pack…' })}
          </option>
          {installed.map((p) => (
            <option key={p.id} value={p.id}>
              {p.id} · {p.family}
            </option>
          ))}
        </select>
      </div>
      {pack && (
        <div className="field">
          <label htmlFor={`${id}-speaker`}>
            {pack.family === 'kokoro'
              ? intl.formatMessage({ id: 'voices.form.pack.voice', defaultMessage: 'Voice' })
              : intl.formatMessage({ id: 'voices.form.pack.speaker', defaultMessage: 'Speaker' })}
          </label>
          <select
            id={`${id}-speaker`}
            value={draft.speaker}
            onChange={(e) => update({ speaker: e.target.value })}
          >
            {speakerChoices(pack, intl).map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
      )}
    </div>
  );
}

/** The Kokoro voices of a blend with their weights and shares (no Kokoro pack: where to install one). */
function BlendFields({ id, draft, update, installed }: FieldsProps & { installed: VoicePackInfo[] }) {
  const intl = useIntl();
  const kokoroVoices = [
    ...new Set(installed.filter((p) => p.family === 'kokoro').flatMap((p) => p.speakers)),
  ].sort();
  const shares = blendShares(draft.parts.map((p) => Number(p.weight)));
  const setPart = (index: number, change: Partial<CustomVoiceDraft['parts'][number]>) =>
    update({ parts: draft.parts.map((p, i) => (i === index ? { ...p, ...change } : p)) });
  if (kokoroVoices.length === 0)
    return (
      <p className="hint">
        <FormattedMessage
          id="voices.form.blend.none"
          defaultMessage="No Kokoro pack is installed: install one in the Voice library to blend its voices."
        />
      </p>
    );
  return (
    <div className="blend-parts">
      <ul
        aria-label={intl.formatMessage({
          id: 'voices.form.blend.parts',
          defaultMessage: 'Blend parts',
        })}
      >
        {draft.parts.map((part, i) => (
          <li key={i} className="row">
            <label className="visually-hidden" htmlFor={`${id}-part-${i}`}>
              <FormattedMessage
                id="voices.form.blend.voice"
                defaultMessage="Blend voice {n}"
                values={{ n: i + 1 }}
              />
            </label>
            <select
              id={`${id}-part-${i}`}
              value={part.voice}
              onChange={(e) => setPart(i, { voice: e.target.value })}
            >
              {kokoroVoices.map((v) => (
                <option key={v}>{v}</option>
              ))}
            </select>
            <label className="visually-hidden" htmlFor={`${id}-weight-${i}`}>
              <FormattedMessage
                id="voices.form.blend.weightLabel"
                defaultMessage="Weight of blend voice {n}"
                values={{ n: i + 1 }}
              />
            </label>
            <input
              id={`${id}-weight-${i}`}
              type="number"
              min={0}
              max={100}
              step="any"
              className="blend-weight"
              value={part.weight}
              onChange={(e) => setPart(i, { weight: e.target.value })}
            />
            <span
              className="muted small blend-share"
              aria-label={intl.formatMessage(
                { id: 'voices.form.blend.share', defaultMessage: 'Share of blend voice {n}' },
                { n: i + 1 },
              )}
            >
              {Math.round(shares[i]!)} %
            </span>
            <button
              type="button"
              aria-label={intl.formatMessage(
                { id: 'voices.form.blend.remove', defaultMessage: 'Remove blend voice {n}' },
                { n: i + 1 },
              )}
              onClick={() => update({ parts: draft.parts.filter((_, j) => j !== i) })}
            >
              <FormattedMessage id="common.remove" defaultMessage="Remove" />
            </button>
          </li>
        ))}
      </ul>
      <button
        type="button"
        disabled={draft.parts.length >= MAX_BLEND_PARTS}
        onClick={() => update({ parts: [...draft.parts, { voice: kokoroVoices[0]!, weight: '1' }] })}
      >
        <FormattedMessage id="voices.form.blend.add" defaultMessage="Add a voice to the blend" />
      </button>
    </div>
  );
}
