import { useState } from 'react';
import { useIntl } from 'react-intl';
import type { CustomVoice } from '../../../../electron/shared/custom-voices';
import { errorMessage } from '../../lib/api-client';
import { catalogueVoiceOf } from '../../lib/voice-codes';
import { useStudio } from '../../stores';
import { codeProblem, draftOf, inputOf, type CustomVoiceDraft } from './custom-voice-draft';

/** Changes some of the draft's fields. */
export type UpdateDraft = (change: Partial<CustomVoiceDraft>) => void;

/**
 * The custom voice form's own state: the draft, whether the code was touched, the one message
 * of the form and the save under way; `submit` checks the draft, then saves it.
 */
export function useCustomVoiceForm(editing: CustomVoice | undefined, onSaved: (voice: CustomVoice) => void) {
  const intl = useIntl();
  const studioVoice = useStudio((s) => s.options.voice_code);
  const customVoices = useStudio((s) => s.customVoices);
  const save = useStudio((s) => s.saveCustomVoice);
  // A new voice starts over the studio's voice (a custom one's catalogue voice).
  const [draft, setDraft] = useState<CustomVoiceDraft>(() =>
    draftOf(editing, catalogueVoiceOf(studioVoice, customVoices)?.voice_code ?? studioVoice),
  );
  const [codeTouched, setCodeTouched] = useState(false);
  /** One message for the whole form: the server's answer or what stops the draft being sent. */
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const taken = customVoices.filter((v) => v.code !== editing?.code).map((v) => v.code);
  const codeError = editing ? null : codeProblem(draft.code, taken, intl);

  const update: UpdateDraft = (change) => {
    setDraft((d) => ({ ...d, ...change }));
    // A server answer is about what was sent: once the form changes, it no longer applies.
    setError(null);
  };
  const submit = async () => {
    setCodeTouched(true);
    if (codeError) return setError(codeError);
    const built = inputOf(draft, intl);
    if ('problem' in built) return setError(built.problem);
    setSaving(true);
    try {
      onSaved(await save(built.input, editing?.code));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  };
  const editCode = (code: string) => {
    setCodeTouched(true);
    update({ code });
  };
  return { draft, update, codeTouched, codeError, editCode, error, saving, submit };
}
