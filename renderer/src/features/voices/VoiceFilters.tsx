import { useId, type Dispatch, type SetStateAction } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Voice } from '../../../../electron/shared/api';
import { voicePrice } from '../../lib/voice-price';

export type Filter = { language: string; gender: string; accent: string; price: string; query: string };
const ALL = '';

/** No filter: every catalogue voice. */
export const NO_FILTER: Filter = { language: ALL, gender: ALL, accent: ALL, price: ALL, query: '' };

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

type Props = {
  filter: Filter;
  onChange: Dispatch<SetStateAction<Filter>>;
  /** The catalogue's (English) language names; languageLabel shows them. */
  languages: readonly string[];
  accents: readonly string[];
  languageLabel: (name: string) => string;
  accentLabel: (accent: string) => string;
  /** How many voices the filters let through. */
  shown: number;
};

/** The catalogue's search and its language, gender, accent and price filters. */
export function VoiceFilters({
  filter,
  onChange,
  languages,
  accents,
  languageLabel,
  accentLabel,
  shown,
}: Props) {
  const id = useId();
  const intl = useIntl();
  const set = (key: keyof Filter) => (e: { target: { value: string } }) =>
    onChange((f) => ({ ...f, [key]: e.target.value }));
  return (
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
          <option value="">{intl.formatMessage({ id: 'voices.filter.any', defaultMessage: 'Any' })}</option>
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
          <option value="">{intl.formatMessage({ id: 'voices.filter.any', defaultMessage: 'Any' })}</option>
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
          <option value="">{intl.formatMessage({ id: 'voices.filter.any', defaultMessage: 'Any' })}</option>
          {['100', '1000'].map((price) => (
            <option key={price} value={price}>
              {voicePrice(Number(price), intl)}
            </option>
          ))}
        </select>
      </div>
      <span className="muted small" aria-live="polite">
        <FormattedMessage id="voices.filter.shown" defaultMessage="{count} shown" values={{ count: shown }} />
      </span>
    </div>
  );
}
