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

export function StatusBadge({ status }: { status: RequestStatus }) {
  return (
    <span className={`badge ${STATUS_CLASS[status]}`}>
      {status === 'SUCCESS' ? 'done' : status === 'FAILURE' ? 'failed' : status}
    </span>
  );
}

export function CallbackBadge({ state }: { state: CallbackState }) {
  return <span className={`badge ${CALLBACK_CLASS[state]}`}>{state}</span>;
}
