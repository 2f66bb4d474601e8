import { useId, useRef, useState } from 'react';
import type { CustomVoice } from '../../../../electron/shared/custom-voices';
import { AuditionButton } from '../../components/AuditionButton';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CopyButton } from '../../components/CopyButton';
import { useAudition } from '../../lib/useAudition';
import { describeBase } from '../../lib/voice-codes';
import { useStudio } from '../../stores';
import { LANGUAGE_NAMES } from '../lexicon/LexiconEntryForm';
import { CustomVoiceForm } from './CustomVoiceForm';

/** The form's state: closed, a new voice, or the voice being edited. */
type Editing = null | { kind: 'new' } | { kind: 'edit'; voice: CustomVoice };

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
  const [saved, setSaved] = useState<string | null>(null);
  const createButton = useRef<HTMLButtonElement>(null);
  const audition = useAudition();

  const close = () => {
    setEditing(null);
    // Back where the keyboard was before the form opened.
    requestAnimationFrame(() => createButton.current?.focus());
  };
  const languageOf = (v: CustomVoice) =>
    LANGUAGE_NAMES[v.language as keyof typeof LANGUAGE_NAMES] ?? v.language;
  // One message for the panel: the open form's own, else an audition's failure, else the list's.
  const panelError = editing ? null : audition.error ? audition.error.message : error;

  return (
    <section className="panel custom-voices" aria-labelledby={`${id}-title`}>
      <div className="panel-head">
        <div>
          <h2 id={`${id}-title`}>Your voices</h2>
          <p className="hint">
            A name and code of your own over a base voice, with its speed, pitch, volume and pronunciations.
            Pick them anywhere a voice is picked; the API takes the code as voice_code.
          </p>
        </div>
        <button
          ref={createButton}
          type="button"
          className="primary"
          aria-expanded={editing?.kind === 'new'}
          onClick={() => {
            setSaved(null);
            setEditing({ kind: 'new' });
          }}
        >
          Create voice
        </button>
      </div>
      {editing && (
        <CustomVoiceForm
          key={editing.kind === 'edit' ? editing.voice.code : 'new'}
          {...(editing.kind === 'edit' ? { editing: editing.voice } : {})}
          onCancel={close}
          onSaved={(voice) => {
            setSaved(`${editing.kind === 'edit' ? 'Saved' : 'Created'} ${voice.name} (${voice.code}).`);
            close();
          }}
        />
      )}
      <p className="hint" role="status">
        {saved}
      </p>
      {loaded && voices.length === 0 && !editing && (
        <p className="muted">No voices of your own yet. Create one over any voice you like.</p>
      )}
      {voices.length > 0 && (
        <ul className="voice-list" aria-label="Your voices">
          {voices.map((v) => (
            <li key={v.code} className={`voice-card${v.code === selected ? ' selected' : ''}`}>
              <div className="row">
                <span className="name">{v.name}</span>
                <span className="badge">{languageOf(v)}</span>
                {v.gender && <span className="badge">{v.gender}</span>}
              </div>
              <div className="copy-row">
                <code>{v.code}</code>
                <CopyButton text={v.code} label={`Copy code ${v.code}`} />
              </div>
              <p className="small muted custom-voice-base-line">
                Over {describeBase(v.base)} · speed ×{v.prosody.speed}, pitch ×{v.prosody.pitch}, volume{' '}
                {v.prosody.volume} %
                {v.lexicon.length > 0
                  ? ` · ${v.lexicon.length} pronunciation${v.lexicon.length === 1 ? '' : 's'}`
                  : ''}
              </p>
              <div className="row">
                <AuditionButton
                  audition={audition}
                  id={v.code}
                  label={`a sample of ${v.name} (${v.code})`}
                  onToggle={() => audition.toggle(v.code, v.code)}
                />
                <span className="spacer" />
                <button
                  type="button"
                  aria-label={`Edit ${v.name} (${v.code})`}
                  onClick={() => {
                    setSaved(null);
                    setEditing({ kind: 'edit', voice: v });
                  }}
                >
                  Edit
                </button>
                <button
                  type="button"
                  className="danger"
                  aria-label={`Delete ${v.name} (${v.code})`}
                  onClick={() => setDeleting(v)}
                >
                  Delete
                </button>
                <button
                  type="button"
                  className={v.code === selected ? '' : 'primary'}
                  aria-label={`${v.code === selected ? 'In use:' : 'Use'} ${v.name} (${v.code})`}
                  onClick={() => {
                    setOption('voice_code', v.code);
                    setView('studio');
                  }}
                >
                  {v.code === selected ? 'In use' : 'Use'}
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
            title: `Delete ${deleting.name}?`,
            message: `The voice ${deleting.code} is deleted. Requests already made with it keep their audio; projects that use it will need another voice.`,
            confirmLabel: 'Delete voice',
          }
        }
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const voice = deleting!;
          setDeleting(null);
          audition.stop();
          void remove(voice.code).then((ok) => {
            if (ok) setSaved(`Deleted ${voice.name} (${voice.code}).`);
          });
        }}
      />
    </section>
  );
}
