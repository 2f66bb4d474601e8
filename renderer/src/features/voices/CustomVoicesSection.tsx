import { useId, useRef, useState } from 'react';
import { defineMessages, FormattedMessage, useIntl, type MessageDescriptor } from 'react-intl';
import type { CustomVoice } from '../../../../electron/shared/custom-voices';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useAudition } from '../../lib/useAudition';
import { useStudio } from '../../stores';
import { CustomVoiceCard } from './CustomVoiceCard';
import { CustomVoiceForm } from './CustomVoiceForm';

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
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<CustomVoice | null>(null);
  const [saved, setSaved] = useState<Done | null>(null);
  const createButton = useRef<HTMLButtonElement>(null);
  /** The button that opened the form: Create, or a card's Edit. */
  const opener = useRef<HTMLElement | null>(null);
  const audition = useAudition();
  const intl = useIntl();

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
            <CustomVoiceCard
              key={v.code}
              voice={v}
              audition={audition}
              onEdit={(from) => open({ kind: 'edit', voice: v }, from)}
              onDelete={() => setDeleting(v)}
            />
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
