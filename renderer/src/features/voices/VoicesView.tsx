import { useId, useMemo, useState } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import type { Voice } from '../../../../electron/shared/api';
import { CopyButton } from '../../components/CopyButton';
import { defaultPackHint, EngineBadge } from '../../components/EngineBadge';
import { AuditionButton } from '../../components/AuditionButton';
import { useAudition } from '../../lib/useAudition';
import { useStudio } from '../../stores';
import { useLanguageName } from '../../lib/intl-text';
import { voicePrice } from '../../lib/voice-price';
import { CARD_LABELS, GENDER_LABELS, USE_LABELS } from './messages';
import { CustomVoicesSection } from './CustomVoicesSection';
import { Workbench } from './workbench/Workbench';

type Filter = { language: string; gender: string; accent: string; price: string; query: string };
const ALL = '';

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

/** Voices matching the filters and the search (name, code, accent, language). */
export function filterVoices(voices: readonly Voice[], f: Filter): Voice[] {
  const q = f.query.trim().toLowerCase();
  return voices.filter(
    (v) =>
      (f.language === ALL || v.language_name === f.language) &&
      (f.gender === ALL || v.gender === f.gender) &&
      (f.accent === ALL || v.accent === f.accent) &&
      (f.price === ALL || String(v.price) === f.price) &&
      (q === '' || `${v.name} ${v.voice_code} ${v.accent} ${v.language_name}`.toLowerCase().includes(q)),
  );
}

/** All voices grouped by language, with filters, search, audition and copy-code. */
export function VoicesView() {
  const voices = useStudio((s) => s.voices);
  const selected = useStudio((s) => s.options.voice_code);
  const options = useStudio((s) => s.options);
  const setOption = useStudio((s) => s.setOption);
  const setView = useStudio((s) => s.setView);
  const engines = useStudio((s) => s.voiceEngines);
  const id = useId();
  const [filter, setFilter] = useState<Filter>({
    language: ALL,
    gender: ALL,
    accent: ALL,
    price: ALL,
    query: '',
  });
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

  const set = (key: keyof Filter) => (e: { target: { value: string } }) =>
    setFilter((f) => ({ ...f, [key]: e.target.value }));

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
        <div className="voice-filters" role="search">
          <div className="field">
            <label htmlFor={`${id}-q`}>
              <FormattedMessage id="voices.filter.search" defaultMessage="Search" />
            </label>
            <input
              id={`${id}-q`}
              type="search"
              placeholder={intl.formatMessage({
                id: 'voices.filter.search.placeholder',
                defaultMessage: 'Name, code, accent…',
              })}
              value={filter.query}
              onChange={set('query')}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-lang`}>
              <FormattedMessage id="voices.filter.language" defaultMessage="Language" />
            </label>
            <select id={`${id}-lang`} value={filter.language} onChange={set('language')}>
              <option value="">
                {intl.formatMessage({ id: 'voices.filter.language.all', defaultMessage: 'All languages' })}
              </option>
              {languages.map((l) => (
                <option key={l} value={l}>
                  {languageLabel(l)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-gender`}>
              <FormattedMessage id="voices.filter.gender" defaultMessage="Gender" />
            </label>
            <select id={`${id}-gender`} value={filter.gender} onChange={set('gender')}>
              <option value="">
                {intl.formatMessage({ id: 'voices.filter.any', defaultMessage: 'Any' })}
              </option>
              <option value="female">
                {intl.formatMessage({ id: 'voices.filter.gender.female', defaultMessage: 'Female' })}
              </option>
              <option value="male">
                {intl.formatMessage({ id: 'voices.filter.gender.male', defaultMessage: 'Male' })}
              </option>
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-accent`}>
              <FormattedMessage id="voices.filter.accent" defaultMessage="Accent" />
            </label>
            <select id={`${id}-accent`} value={filter.accent} onChange={set('accent')}>
              <option value="">
                {intl.formatMessage({ id: 'voices.filter.any', defaultMessage: 'Any' })}
              </option>
              {accents.map((a) => (
                <option key={a} value={a}>
                  {accentLabel(a)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-price`}>
              <FormattedMessage id="voices.filter.price" defaultMessage="Price" />
            </label>
            <select id={`${id}-price`} value={filter.price} onChange={set('price')}>
              <option value="">
                {intl.formatMessage({ id: 'voices.filter.any', defaultMessage: 'Any' })}
              </option>
              {['100', '1000'].map((price) => (
                <option key={price} value={price}>
                  {voicePrice(Number(price), intl)}
                </option>
              ))}
            </select>
          </div>
          <span className="muted small" aria-live="polite">
            <FormattedMessage
              id="voices.filter.shown"
              defaultMessage="{count} shown"
              values={{ count: shown.length }}
            />
          </span>
        </div>
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
                <li
                  key={v.voice_code}
                  className={`voice-card${v.voice_code === selected ? ' selected' : ''}`}
                >
                  <div className="row">
                    <span className="name">{v.name}</span>
                    <EngineBadge engine={engines[v.voice_code]?.engine} />
                    <span className="badge">{genderLabel(v.gender)}</span>
                    <span className="badge">{accentLabel(v.accent)}</span>
                    {v.accent_approximated && (
                      <span
                        className="badge warn"
                        title={intl.formatMessage({
                          id: 'voices.accentApproximated.title',
                          defaultMessage: 'The engine has no such accent; this voice approximates it.',
                        })}
                      >
                        <FormattedMessage
                          id="voices.accentApproximated"
                          defaultMessage="accent approximated"
                        />
                      </span>
                    )}
                  </div>
                  <div className="copy-row">
                    <code>{v.voice_code}</code>
                    <CopyButton
                      text={v.voice_code}
                      label={intl.formatMessage(CARD_LABELS.copyCode, { code: v.voice_code })}
                    />
                  </div>
                  {defaultPackHint(engines[v.voice_code]) && (
                    <button
                      type="button"
                      className="link small engine-hint"
                      onClick={() => setView('library')}
                    >
                      {defaultPackHint(engines[v.voice_code])}
                    </button>
                  )}
                  <div className="row">
                    <span
                      className="small muted price"
                      title={
                        v.standard
                          ? intl.formatMessage({
                              id: 'voices.price.standard',
                              defaultMessage: 'Standard voice: the model choice applies.',
                            })
                          : intl.formatMessage({
                              id: 'voices.price.notStandard',
                              defaultMessage: 'Not a standard voice: the model choice does not apply.',
                            })
                      }
                    >
                      <FormattedMessage
                        id="voices.price"
                        defaultMessage="{price} credits / 1k chars"
                        values={{ price: String(v.price) }}
                      />
                    </span>
                    <span className="spacer" />
                    <AuditionButton
                      audition={audition}
                      id={v.voice_code}
                      label={intl.formatMessage(CARD_LABELS.audition, { name: v.name, code: v.voice_code })}
                      onToggle={() =>
                        audition.toggle(v.voice_code, v.voice_code, {
                          speed_rate: options.speed_rate,
                          pitch_rate: options.pitch_rate,
                          volume: options.volume,
                        })
                      }
                    />
                    <button
                      type="button"
                      className={v.voice_code === selected ? '' : 'primary'}
                      aria-label={intl.formatMessage(
                        v.voice_code === selected ? CARD_LABELS.inUseLabel : CARD_LABELS.useLabel,
                        { name: v.name, code: v.voice_code },
                      )}
                      onClick={() => {
                        setOption('voice_code', v.voice_code);
                        setView('studio');
                      }}
                    >
                      {intl.formatMessage(v.voice_code === selected ? USE_LABELS.inUse : USE_LABELS.use)}
                    </button>
                  </div>
                  {audition.error?.key === v.voice_code && <p className="error">{audition.error.message}</p>}
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </>
  );
}
