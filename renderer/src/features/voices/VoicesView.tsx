import { useMemo, useState } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { useAudition } from '../../lib/useAudition';
import { useStudio } from '../../stores';
import { useLanguageName } from '../../lib/intl-text';
import { GENDER_LABELS } from './messages';
import { CatalogueVoiceCard } from './CatalogueVoiceCard';
import { filterVoices, NO_FILTER, VoiceFilters, type Filter } from './VoiceFilters';
import { CustomVoicesSection } from './CustomVoicesSection';
import { Workbench } from './workbench/Workbench';

/** The catalogue's accents (ACCENTS) and genders, as shown; the filters keep the English values. */
const ACCENT_LABELS = defineMessages({
  Northern: { id: 'voices.accent.northern', defaultMessage: 'Northern' },
  Southern: { id: 'voices.accent.southern', defaultMessage: 'Southern' },
  American: { id: 'voices.accent.american', defaultMessage: 'American' },
  British: { id: 'voices.accent.british', defaultMessage: 'British' },
  Australian: { id: 'voices.accent.australian', defaultMessage: 'Australian' },
  Indian: { id: 'voices.accent.indian', defaultMessage: 'Indian' },
  Mandarin: { id: 'voices.accent.mandarin', defaultMessage: 'Mandarin' },
  Standard: { id: 'voices.accent.standard', defaultMessage: 'Standard' },
});

/** All voices grouped by language, with filters, search, audition and copy-code. */
export function VoicesView() {
  const voices = useStudio((s) => s.voices);
  const [filter, setFilter] = useState<Filter>(NO_FILTER);
  const audition = useAudition();
  const intl = useIntl();
  const languageName = useLanguageName();
  const accentLabel = (accent: string) =>
    accent in ACCENT_LABELS
      ? intl.formatMessage(ACCENT_LABELS[accent as keyof typeof ACCENT_LABELS])
      : accent;
  const genderLabel = (gender: string) =>
    gender in GENDER_LABELS
      ? intl.formatMessage(GENDER_LABELS[gender as keyof typeof GENDER_LABELS])
      : gender;

  const shown = useMemo(() => filterVoices(voices, filter), [voices, filter]);
  const languages = [...new Set(voices.map((v) => v.language_name))];
  // The filter keeps the catalogue's (English) language name; the screen shows the interface's.
  const languageLabel = (name: string) => {
    const code = voices.find((v) => v.language_name === name)?.language;
    return code ? languageName(code) : name;
  };
  const accents = [...new Set(voices.map((v) => v.accent))].sort();
  const groups = languages
    .map((l) => ({ language: l, voices: shown.filter((v) => v.language_name === l) }))
    .filter((g) => g.voices.length > 0);

  return (
    <>
      <div className="page-head">
        <div>
          <h1>
            <FormattedMessage id="voices.title" defaultMessage="Voices" />
          </h1>
          <p>
            <FormattedMessage
              id="voices.intro"
              defaultMessage="{count, plural, one {# voice} other {# voices}}. Play one to audition it with your current speed, pitch and volume (free)."
              values={{ count: voices.length }}
            />
          </p>
        </div>
      </div>
      <Workbench />
      <CustomVoicesSection />
      <div className="panel">
        <h2 className="visually-hidden">
          <FormattedMessage id="voices.catalogue.title" defaultMessage="Catalogue voices" />
        </h2>
        <VoiceFilters
          filter={filter}
          onChange={setFilter}
          languages={languages}
          accents={accents}
          languageLabel={languageLabel}
          accentLabel={accentLabel}
          shown={shown.length}
        />
        {groups.length === 0 && (
          <p className="muted">
            <FormattedMessage id="voices.filter.none" defaultMessage="No voice matches these filters." />
          </p>
        )}
        {groups.map((g) => (
          <section
            key={g.language}
            className="voice-group"
            aria-label={intl.formatMessage(
              { id: 'voices.group.label', defaultMessage: '{language} voices' },
              { language: languageLabel(g.language) },
            )}
          >
            <h3>{languageLabel(g.language)}</h3>
            <ul className="voice-list">
              {g.voices.map((v) => (
                <CatalogueVoiceCard
                  key={v.voice_code}
                  voice={v}
                  audition={audition}
                  accentLabel={accentLabel}
                  genderLabel={genderLabel}
                />
              ))}
            </ul>
          </section>
        ))}
      </div>
    </>
  );
}
