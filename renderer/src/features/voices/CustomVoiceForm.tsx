import { useEffect, useId, useRef } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { MAX_CUSTOM_VOICE_NAME_CHARS, type CustomVoice } from '../../../../electron/shared/custom-voices';
import { BusyButton } from '../../components/BusyButton';
import { SliderField } from '../controls/SliderField';
import { BaseVoiceFields } from './CustomVoiceBaseFields';
import { CustomVoiceLexiconFields } from './CustomVoiceLexiconFields';
import type { CustomVoiceDraft } from './custom-voice-draft';
import { useCustomVoiceForm, type UpdateDraft } from './custom-voice-form-state';

const twoDecimals = (v: number) => v.toFixed(2);

/**
 * Creates or edits one custom voice: name and code (checked as typed; the server's answer, such
 * as a code already taken, shown once), its base (a catalogue voice, an installed pack's
 * speaker, or a weighted blend of Kokoro voices), speed, pitch and volume, its own
 * pronunciations, and a note. Escape cancels; the name field has the focus when it opens.
 */
export function CustomVoiceForm({
  editing,
  onSaved,
  onCancel,
}: {
  /** The voice being edited; a new voice when absent. */
  editing?: CustomVoice;
  onSaved(voice: CustomVoice): void;
  onCancel(): void;
}) {
  const id = useId();
  const intl = useIntl();
  const form = useCustomVoiceForm(editing, onSaved);
  const { draft, update, error, saving } = form;

  return (
    <form
      className="custom-voice-form"
      aria-label={
        editing
          ? intl.formatMessage(
              { id: 'voices.form.editLabel', defaultMessage: 'Edit voice {name}' },
              { name: editing.name },
            )
          : intl.formatMessage({ id: 'voices.form.newLabel', defaultMessage: 'New voice' })
      }
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        // Enter in a field submits even while saving (the button is aria-disabled, not disabled).
        if (!saving) void form.submit();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          onCancel();
        }
      }}
    >
      <NameAndCodeFields id={id} editing={editing} form={form} />
      <BaseVoiceFields id={id} draft={draft} update={update} />
      <ProsodyFields draft={draft} update={update} />
      <CustomVoiceLexiconFields id={id} draft={draft} update={update} />

      <div className="field">
        <label htmlFor={`${id}-note`}>
          <FormattedMessage id="voices.form.note" defaultMessage="Note (optional)" />
        </label>
        <input
          id={`${id}-note`}
          type="text"
          maxLength={500}
          value={draft.note}
          onChange={(e) => update({ note: e.target.value })}
        />
      </div>

      <p className="error" role="alert" aria-live="assertive">
        {error}
      </p>
      <div className="row">
        <span className="spacer" />
        <button type="button" onClick={onCancel}>
          <FormattedMessage id="common.cancel" defaultMessage="Cancel" />
        </button>
        <BusyButton type="submit" className="primary" busy={saving}>
          {saving
            ? intl.formatMessage({ id: 'common.saving', defaultMessage: 'Saving…' })
            : editing
              ? intl.formatMessage({ id: 'common.save', defaultMessage: 'Save' })
              : intl.formatMessage({ id: 'voices.custom.create', defaultMessage: 'Create voice' })}
        </BusyButton>
      </div>
    </form>
  );
}

/** The voice's name (focused when the form opens) and its code (checked as typed; kept once saved). */
function NameAndCodeFields({
  id,
  editing,
  form,
}: {
  id: string;
  editing: CustomVoice | undefined;
  form: ReturnType<typeof useCustomVoiceForm>;
}) {
  const intl = useIntl();
  const { draft, update, codeTouched, codeError, editCode } = form;
  const nameInput = useRef<HTMLInputElement>(null);
  useEffect(() => nameInput.current?.focus(), []);
  return (
    <div className="custom-voice-grid">
      <div className="field">
        <label htmlFor={`${id}-name`}>
          <FormattedMessage id="voices.form.name" defaultMessage="Name" />
        </label>
        <input
          id={`${id}-name`}
          ref={nameInput}
          type="text"
          maxLength={MAX_CUSTOM_VOICE_NAME_CHARS}
          placeholder={intl.formatMessage({
            id: 'voices.form.name.placeholder',
            defaultMessage: 'e.g. Cô Lan, slow and warm',
          })}
          value={draft.name}
          onChange={(e) => update({ name: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-code`}>
          <FormattedMessage id="voices.form.code" defaultMessage="Code" />
        </label>
        <input
          id={`${id}-code`}
          type="text"
          spellCheck={false}
          autoCapitalize="off"
          placeholder={intl.formatMessage({
            id: 'voices.form.code.placeholder',
            defaultMessage: 'e.g. co_lan',
          })}
          value={draft.code}
          disabled={editing !== undefined}
          aria-invalid={codeTouched && codeError !== null}
          aria-describedby={`${id}-code-hint`}
          onChange={(e) => editCode(e.target.value)}
        />
        <p className={codeTouched && codeError ? 'hint invalid' : 'hint'} id={`${id}-code-hint`}>
          {editing
            ? intl.formatMessage({
                id: 'voices.form.code.kept',
                defaultMessage: 'A saved voice keeps its code.',
              })
            : codeTouched && codeError
              ? codeError
              : intl.formatMessage({
                  id: 'voices.form.code.hint',
                  defaultMessage: 'Lower-case letters, digits, _ and -; used as voice_code in the API.',
                })}
        </p>
      </div>
    </div>
  );
}

/** Speed, pitch and volume, with what they do. */
function ProsodyFields({ draft, update }: { draft: CustomVoiceDraft; update: UpdateDraft }) {
  const intl = useIntl();
  return (
    <>
      <div className="custom-voice-grid three">
        <SliderField
          label={intl.formatMessage({ id: 'voices.form.speed', defaultMessage: 'Speed' })}
          value={draft.speed}
          min={0.5}
          max={2}
          step={0.05}
          format={twoDecimals}
          onChange={(speed) => update({ speed })}
        />
        <SliderField
          label={intl.formatMessage({ id: 'voices.form.pitch', defaultMessage: 'Pitch' })}
          value={draft.pitch}
          min={0.5}
          max={2}
          step={0.05}
          format={twoDecimals}
          onChange={(pitch) => update({ pitch })}
        />
        <SliderField
          label={intl.formatMessage({ id: 'voices.form.volume', defaultMessage: 'Volume' })}
          value={draft.volume}
          min={50}
          max={150}
          step={1}
          onChange={(volume) => update({ volume })}
        />
      </div>
      <p className="hint slider-hint">
        <FormattedMessage
          id="voices.form.prosody.hint"
          defaultMessage="Speed and pitch multiply a request’s own; volume is a percentage of it."
        />
      </p>
    </>
  );
}
