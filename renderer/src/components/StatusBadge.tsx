import { defineMessages, useIntl } from 'react-intl';
import type { CallbackState, RequestStatus } from '../../../electron/shared/api';

const STATUS_CLASS: Record<RequestStatus, string> = {
  new: '',
  processing: 'accent',
  SUCCESS: 'ok',
  FAILURE: 'bad',
};
const CALLBACK_CLASS: Record<CallbackState, string> = {
  none: '',
  waiting: '',
  pending: 'warn',
  delivered: 'ok',
  failed: 'bad',
};

/** A request's status in words (the badge, History's filter). */
export const STATUS_TEXT = defineMessages<RequestStatus>({
  new: { id: 'components.status.new', defaultMessage: 'new' },
  processing: { id: 'components.status.processing', defaultMessage: 'processing' },
  SUCCESS: { id: 'components.status.done', defaultMessage: 'done' },
  FAILURE: { id: 'components.status.failed', defaultMessage: 'failed' },
});
const CALLBACK_TEXT = defineMessages<CallbackState>({
  none: { id: 'components.callback.none', defaultMessage: 'none' },
  waiting: { id: 'components.callback.waiting', defaultMessage: 'waiting' },
  pending: { id: 'components.callback.pending', defaultMessage: 'pending' },
  delivered: { id: 'components.callback.delivered', defaultMessage: 'delivered' },
  failed: { id: 'components.callback.failed', defaultMessage: 'failed' },
});

export function StatusBadge({ status }: { status: RequestStatus }) {
  const intl = useIntl();
  return <span className={`badge ${STATUS_CLASS[status]}`}>{intl.formatMessage(STATUS_TEXT[status])}</span>;
}

export function CallbackBadge({ state }: { state: CallbackState }) {
  const intl = useIntl();
  return <span className={`badge ${CALLBACK_CLASS[state]}`}>{intl.formatMessage(CALLBACK_TEXT[state])}</span>;
}
