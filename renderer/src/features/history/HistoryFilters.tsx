import { useId } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ApiKeyInfo, RequestStatus } from '../../../../electron/shared/api';
import { REQUEST_STATUSES } from '../../../../electron/shared/api';
import { VOICES } from '../../../../electron/shared/voices';
import { KeySelect } from '../../components/KeySelect';
import { STATUS_TEXT } from '../../components/StatusBadge';

/** What History shows: the key (or all), the status and the voice; each change goes back to page 1. */
export function HistoryFilters({
  keyFilter,
  keys,
  status,
  voice,
  onKey,
  onStatus,
  onVoice,
}: {
  keyFilter: string;
  keys: readonly ApiKeyInfo[];
  status: RequestStatus | '';
  voice: string;
  onKey(key: string): void;
  onStatus(status: RequestStatus | ''): void;
  onVoice(voice: string): void;
}) {
  const id = useId();
  const intl = useIntl();
  return (
    <div className="voice-filters">
      <KeySelect value={keyFilter} keys={keys} onChange={onKey} />
      <div className="field">
        <label htmlFor={`${id}-status`}>
          <FormattedMessage id="history.status" defaultMessage="Status" />
        </label>
        <select
          id={`${id}-status`}
          value={status}
          onChange={(e) => onStatus(e.target.value as RequestStatus | '')}
        >
          <option value="">{intl.formatMessage({ id: 'history.status.any', defaultMessage: 'Any' })}</option>
          {REQUEST_STATUSES.map((s) => (
            <option key={s} value={s}>
              {intl.formatMessage(STATUS_TEXT[s])}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-voice`}>
          <FormattedMessage id="history.voice" defaultMessage="Voice" />
        </label>
        <select id={`${id}-voice`} value={voice} onChange={(e) => onVoice(e.target.value)}>
          <option value="">
            {intl.formatMessage({ id: 'history.voice.any', defaultMessage: 'Any voice' })}
          </option>
          {VOICES.map((v) => (
            <option key={v.voice_code} value={v.voice_code}>
              {v.name} ({v.voice_code})
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
