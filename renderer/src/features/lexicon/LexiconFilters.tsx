import { useId, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { LANGUAGE_CODES } from '../../../../electron/shared/languages';
import type { LanguageCode } from '../../../../electron/shared/voices';
import { useLanguageName } from '../../lib/intl-text';

/** The lexicon's search and language filter, how many entries they show, and (`children`) its files' buttons. */
export function LexiconFilters({
  query,
  onQuery,
  language,
  onLanguage,
  shown,
  total,
  version,
  children,
}: {
  query: string;
  onQuery(query: string): void;
  language: LanguageCode | '';
  onLanguage(language: LanguageCode | ''): void;
  shown: number;
  total: number;
  /** The lexicon's version, once read. */
  version: number | undefined;
  children: ReactNode;
}) {
  const id = useId();
  const intl = useIntl();
  const languageName = useLanguageName();
  return (
    <div className="voice-filters" role="search">
      <div className="field">
        <label htmlFor={`${id}-q`}>
          <FormattedMessage id="lexicon.search" defaultMessage="Search" />
        </label>
        <input
          id={`${id}-q`}
          type="search"
          placeholder={intl.formatMessage({
            id: 'lexicon.search.placeholder',
            defaultMessage: 'Word or note…',
          })}
          value={query}
          onChange={(e) => onQuery(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-lang`}>
          <FormattedMessage id="lexicon.language" defaultMessage="Language" />
        </label>
        <select
          id={`${id}-lang`}
          value={language}
          onChange={(e) => onLanguage(e.target.value as LanguageCode | '')}
        >
          <option value="">
            {intl.formatMessage({ id: 'lexicon.allLanguages', defaultMessage: 'All languages' })}
          </option>
          {LANGUAGE_CODES.map((l) => (
            <option key={l} value={l}>
              {languageName(l)}
            </option>
          ))}
        </select>
      </div>
      <span className="muted small" aria-live="polite">
        <FormattedMessage
          id="lexicon.count"
          defaultMessage="{shown, number} of {total, plural, one {# entry} other {# entries}}"
          values={{ shown, total }}
        />
        {version !== undefined && (
          <>
            {' · '}
            <FormattedMessage id="lexicon.version" defaultMessage="version {version}" values={{ version }} />
          </>
        )}
      </span>
      <span className="spacer" />
      {children}
    </div>
  );
}
