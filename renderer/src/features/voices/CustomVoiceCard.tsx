import { FormattedMessage, useIntl } from 'react-intl';
import type { CustomVoice, CustomVoiceBase } from '../../../../electron/shared/custom-voices';
import { AuditionButton } from '../../components/AuditionButton';
import { CopyButton } from '../../components/CopyButton';
import type { useAudition } from '../../lib/useAudition';
import { blendShares, describeBase } from '../../lib/voice-codes';
import { useStudio } from '../../stores';
import { useLanguageName } from '../../lib/intl-text';
import { CARD_LABELS, GENDER_LABELS, USE_LABELS } from './messages';

type Props = {
  voice: CustomVoice;
  audition: ReturnType<typeof useAudition>;
  /** Opens the form on this voice; `from` gets the focus back when it closes. */
  onEdit: (from: HTMLElement) => void;
  /** Asks whether to delete this voice. */
  onDelete: () => void;
};

/** One of the user's voices: name, code, base and prosody, with audition, Edit, Delete and Use. */
export function CustomVoiceCard({ voice: v, audition, onEdit, onDelete }: Props) {
  const intl = useIntl();
  const languageName = useLanguageName();
  const selected = useStudio((s) => s.options.voice_code);
  const setOption = useStudio((s) => s.setOption);
  const setView = useStudio((s) => s.setView);
  /** The base as describeBase writes it, a blend's word in the interface's language. */
  const baseOf = (base: CustomVoiceBase) => {
    if (base.kind !== 'kokoro_blend') return describeBase(base);
    const shares = blendShares(base.parts.map((p) => p.weight));
    return intl.formatMessage(
      { id: 'voices.custom.base.blend', defaultMessage: 'Kokoro blend {parts}' },
      { parts: base.parts.map((p, i) => `${p.voice} ${Math.round(shares[i]!)} %`).join(' + ') },
    );
  };

  return (
    <li className={`voice-card${v.code === selected ? ' selected' : ''}`}>
      <div className="row">
        <span className="name">{v.name}</span>
        <span className="badge">{languageName(v.language)}</span>
        {v.gender && <span className="badge">{intl.formatMessage(GENDER_LABELS[v.gender])}</span>}
      </div>
      <div className="copy-row">
        <code>{v.code}</code>
        <CopyButton text={v.code} label={intl.formatMessage(CARD_LABELS.copyCode, { code: v.code })} />
      </div>
      <p className="small muted custom-voice-base-line">
        <FormattedMessage
          id="voices.custom.baseLine"
          defaultMessage="Over {base} · speed ×{speed}, pitch ×{pitch}, volume {volume} %{count, plural, =0 {} one { · # pronunciation} other { · # pronunciations}}"
          values={{
            base: baseOf(v.base),
            speed: v.prosody.speed,
            pitch: v.prosody.pitch,
            volume: v.prosody.volume,
            count: v.lexicon.length,
          }}
        />
      </p>
      <div className="row">
        <AuditionButton
          audition={audition}
          id={v.code}
          label={intl.formatMessage(CARD_LABELS.audition, { name: v.name, code: v.code })}
          onToggle={() => audition.toggle(v.code, v.code)}
        />
        <span className="spacer" />
        <button
          type="button"
          aria-label={intl.formatMessage(
            { id: 'voices.custom.edit.label', defaultMessage: 'Edit {name} ({code})' },
            { name: v.name, code: v.code },
          )}
          onClick={(e) => onEdit(e.currentTarget)}
        >
          <FormattedMessage id="common.edit" defaultMessage="Edit" />
        </button>
        <button
          type="button"
          className="danger"
          aria-label={intl.formatMessage(
            { id: 'voices.custom.delete.label', defaultMessage: 'Delete {name} ({code})' },
            { name: v.name, code: v.code },
          )}
          onClick={onDelete}
        >
          <FormattedMessage id="common.delete" defaultMessage="Delete" />
        </button>
        <button
          type="button"
          className={v.code === selected ? '' : 'primary'}
          aria-label={intl.formatMessage(
            v.code === selected ? CARD_LABELS.inUseLabel : CARD_LABELS.useLabel,
            {
              name: v.name,
              code: v.code,
            },
          )}
          onClick={() => {
            setOption('voice_code', v.code);
            setView('studio');
          }}
        >
          {intl.formatMessage(v.code === selected ? USE_LABELS.inUse : USE_LABELS.use)}
        </button>
      </div>
    </li>
  );
}
