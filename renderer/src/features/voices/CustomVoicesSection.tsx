import { useId, useRef, useState } from 'react';
import { defineMessages, FormattedMessage, useIntl, type MessageDescriptor } from 'react-intl';
import type { CustomVoice, CustomVoiceBase } from '../../../../electron/shared/custom-voices';
import { AuditionButton } from '../../components/AuditionButton';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CopyButton } from '../../components/CopyButton';
import { useAudition } from '../../lib/useAudition';
import { blendShares, describeBase } from '../../lib/voice-codes';
import { useStudio } from '../../stores';
import { useLanguageName } from '../../lib/intl-text';
import { CustomVoiceForm } from './CustomVoiceForm';
import { CARD_LABELS, GENDER_LABELS, USE_LABELS } from './messages';

/** The form's state: closed, a new voice, or the voice being edited. */
type Editing = null | { kind: 'new' } | { kind: 'edit'; voice: CustomVoice };

/** What the status line says after a save or a delete, with the voice's name and code. */
const DONE = defineMessages({
  created: { id: 'voices.custom.created', defaultMessage: 'Created {name} ({code}).' },
  saved: { id: 'voices.custom.saved', defaultMessage: 'Saved {name} ({code}).' },
  deleted: { id: 'voices.custom.deleted', defaultMessage: 'Deleted {name} ({code}).' },
});
type Done = { message: MessageDescriptor; name: string; code: string };

/**
 * "Your voices" in the Voices view: the user's custom voices (name, code, base, language), each
 * auditioned, used, edited or deleted (after a question); Create opens the same form empty.
 */
export function CustomVoicesSection() {
  const id = useId();
  const voices = useStudio((s) => s.customVoices);
  const loaded = useStudio((s) => s.customVoicesLoaded);
  const error = useStudio((s) => s.customVoicesError);
  const remove = useStudio((s) => s.deleteCustomVoice);
  const selected = useStudio((s) => s.options.voice_code);
  const setOption = useStudio((s) => s.setOption);
  const setView = useStudio((s) => s.setView);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<CustomVoice | null>(null);
  const [saved, setSaved] = useState<Done | null>(null);
  const createButton = useRef<HTMLButtonElement>(null);
  /** The button that opened the form: Create, or a card's Edit. */
  const opener = useRef<HTMLElement | null>(null);
  const audition = useAudition();
  const intl = useIntl();
  const languageName = useLanguageName();

  const open = (next: NonNullable<Editing>, from: HTMLElement) => {
    opener.current = from;
    setSaved(null);
    setEditing(next);
  };
  const close = () => {
    // Back where the keyboard was before the form opened, before the form goes: no moment with the
    // focus on the page's body. Create stands in for an opener that is gone (a voice deleted meanwhile).
    (opener.current?.isConnected ? opener.current : createButton.current)?.focus();
    setEditing(null);
  };
  const languageOf = (v: CustomVoice) => languageName(v.language);
  /** The base as describeBase writes it, a blend's word in the interface's language. */
  const baseOf = (base: CustomVoiceBase) => {
    if (base.kind !== 'kokoro_blend') return describeBase(base);
    const shares = blendShares(base.parts.map((p) => p.weight));
    return intl.formatMessage(
      { id: 'voices.custom.base.blend', defaultMessage: 'Kokoro blend {parts}' },
      { parts: base.parts.map((p, i) => `${p.voice} ${Math.round(shares[i]!)} %`).join(' + ') },
    );
  };
  // One message for the panel: the open form's own, else an audition's failure, else the list's.
  const panelError = editing ? null : audition.error ? audition.error.message : error;

  return (
    <section className="panel custom-voices" aria-labelledby={`${id}-title`}>
      <div className="panel-head">
        <div>
          <h2 id={`${id}-title`}>
            <FormattedMessage id="voices.custom.title" defaultMessage="Your voices" />
          </h2>
          <p className="hint">
            <FormattedMessage
              id="voices.custom.hint"
              defaultMessage="A name and code of your own over a base voice, with its speed, pitch, volume and pronunciations. Pick them anywhere a voice is picked; the API takes the code as voice_code."
            />
          </p>
        </div>
        <button
          ref={createButton}
          type="button"
          className="primary"
          aria-expanded={editing?.kind === 'new'}
          onClick={(e) => open({ kind: 'new' }, e.currentTarget)}
        >
          <FormattedMessage id="voices.custom.create" defaultMessage="Create voice" />
        </button>
      </div>
      {editing && (
        <CustomVoiceForm
          key={editing.kind === 'edit' ? editing.voice.code : 'new'}
          {...(editing.kind === 'edit' ? { editing: editing.voice } : {})}
          onCancel={close}
          onSaved={(voice) => {
            setSaved({
              message: editing.kind === 'edit' ? DONE.saved : DONE.created,
              name: voice.name,
              code: voice.code,
            });
            close();
          }}
        />
      )}
      <p className="hint" role="status">
        {saved && intl.formatMessage(saved.message, { name: saved.name, code: saved.code })}
      </p>
      {loaded && voices.length === 0 && !editing && (
        <p className="muted">
          <FormattedMessage
            id="voices.custom.empty"
            defaultMessage="No voices of your own yet. Create one over any voice you like."
          />
        </p>
      )}
      {voices.length > 0 && (
        <ul
          className="voice-list"
          aria-label={intl.formatMessage({ id: 'voices.custom.title', defaultMessage: 'Your voices' })}
        >
          {voices.map((v) => (
            <li key={v.code} className={`voice-card${v.code === selected ? ' selected' : ''}`}>
              <div className="row">
                <span className="name">{v.name}</span>
                <span className="badge">{languageOf(v)}</span>
                {v.gender && <span className="badge">{intl.formatMessage(GENDER_LABELS[v.gender])}</span>}
              </div>
              <div className="copy-row">
                <code>{v.code}</code>
                <CopyButton
                  text={v.code}
                  label={intl.formatMessage(CARD_LABELS.copyCode, { code: v.code })}
                />
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
                  onClick={(e) => open({ kind: 'edit', voice: v }, e.currentTarget)}
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
                  onClick={() => setDeleting(v)}
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
          ))}
        </ul>
      )}
      <p className="error" role="alert">
        {panelError}
      </p>
      <ConfirmDialog
        request={
          deleting && {
            title: intl.formatMessage(
              { id: 'voices.custom.delete.title', defaultMessage: 'Delete {name}?' },
              { name: deleting.name },
            ),
            message: intl.formatMessage(
              {
                id: 'voices.custom.delete.message',
                defaultMessage:
                  'The voice {code} is deleted. Requests already made with it keep their audio; projects that use it will need another voice.',
              },
              { code: deleting.code },
            ),
            confirmLabel: intl.formatMessage({
              id: 'voices.custom.delete.confirm',
              defaultMessage: 'Delete voice',
            }),
          }
        }
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const voice = deleting!;
          setDeleting(null);
          audition.stop();
          void remove(voice.code).then((ok) => {
            if (ok) setSaved({ message: DONE.deleted, name: voice.name, code: voice.code });
          });
        }}
      />
    </section>
  );
}
