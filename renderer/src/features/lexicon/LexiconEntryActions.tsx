import { FormattedMessage, useIntl } from 'react-intl';
import type { LexiconEntryInput } from '../../../../electron/shared/lexicon';
import { findVoice, type LanguageCode } from '../../../../electron/shared/voices';
import { BusyButton } from '../../components/BusyButton';
import { useLanguageName } from '../../lib/intl-text';
import type { Audition } from '../../lib/useAudition';
import { usePreview } from './useEntryPreview';

/**
 * The entry form's buttons: Test plays the draft as it would be spoken, Original as the engine
 * reads it without the entry (with which voice is said), Cancel, and Save (or Add).
 */
export function LexiconEntryActions({
  previewKey,
  draft,
  complete,
  voiceCode,
  language,
  audition,
  editing,
  saving,
  onCancel,
}: {
  /** The audition key of this form's draft (its plays are `<key>-with` and `<key>-without`). */
  previewKey: string;
  draft: LexiconEntryInput;
  complete: boolean;
  voiceCode: string | undefined;
  language: LanguageCode;
  audition: Audition;
  editing: boolean;
  saving: boolean;
  onCancel(): void;
}) {
  const intl = useIntl();
  const languageName = useLanguageName();
  const preview = usePreview(audition);
  const match = draft.match;
  return (
    <div className="row lexicon-actions">
      <button
        type="button"
        disabled={!complete}
        aria-busy={audition.active === `${previewKey}-with` && audition.phase === 'loading'}
        onClick={() => preview(`${previewKey}-with`, draft, voiceCode)}
      >
        {audition.active === `${previewKey}-with` ? (
          <FormattedMessage id="common.stop" defaultMessage="Stop" />
        ) : (
          <FormattedMessage id="lexicon.form.test" defaultMessage="Test" />
        )}
      </button>
      <button
        type="button"
        disabled={match.trim() === '' || !complete}
        onClick={() => preview(`${previewKey}-without`, draft, voiceCode, 'without')}
      >
        {audition.active === `${previewKey}-without` ? (
          <FormattedMessage id="common.stop" defaultMessage="Stop" />
        ) : (
          <FormattedMessage id="lexicon.form.original" defaultMessage="Original" />
        )}
      </button>
      <span className="hint">
        {voiceCode
          ? intl.formatMessage(
              { id: 'lexicon.form.testedWith', defaultMessage: 'Tested with {voice}' },
              { voice: findVoice(voiceCode)?.name ?? voiceCode },
            )
          : intl.formatMessage(
              {
                id: 'lexicon.form.testedWithLanguage',
                defaultMessage: 'Tested with a voice in {language}',
              },
              { language: languageName(language) },
            )}
      </span>
      <span className="spacer" />
      <button type="button" onClick={onCancel}>
        <FormattedMessage id="common.cancel" defaultMessage="Cancel" />
      </button>
      <BusyButton type="submit" className="primary" busy={saving} unavailable={!complete}>
        {editing ? (
          <FormattedMessage id="common.save" defaultMessage="Save" />
        ) : (
          <FormattedMessage id="lexicon.form.add" defaultMessage="Add to lexicon" />
        )}
      </BusyButton>
    </div>
  );
}
