import { useCallback, useEffect, useState } from 'react';
import type { CallbackAttemptList, RequestDetail } from '../../../../electron/shared/api';
import { CALLBACK_ATTEMPT_LIMITS } from '../../../../electron/shared/api';
import { useKeyFilter } from '../../components/KeySelect';
import { errorMessage } from '../../lib/api-client';
import { useClient } from '../../stores';

const NO_ATTEMPTS: CallbackAttemptList = { items: [], next_cursor: null, total: 0, dropped: 0 };

/**
 * The Callbacks view's state: the requests with a callback URL (of the key chosen, or of all),
 * the one selected and its newest delivery attempts (up to `attemptLimit`), read again every
 * 1.5 s; Resend and its error.
 */
export function useCallbacks() {
  const client = useClient();
  const [requests, setRequests] = useState<RequestDetail[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [attemptList, setAttemptList] = useState<CallbackAttemptList>(NO_ATTEMPTS);
  const [attemptLimit, setAttemptLimit] = useState<number>(CALLBACK_ATTEMPT_LIMITS.pageDefault);
  const [error, setError] = useState<string | null>(null);
  const [resendError, setResendError] = useState<string | null>(null);
  const { key, setKey, keys } = useKeyFilter();

  const load = useCallback(async () => {
    try {
      const list = await client.listRequests({ page: 1, page_size: 100, key });
      const withCallback = list.items.filter((r) => r.callback_url);
      setRequests(withCallback);
      const current = selected ?? withCallback[0]?.request_id ?? null;
      if (current !== selected) setSelected(current);
      setAttemptList(current ? await client.callbackAttempts(current, attemptLimit) : NO_ATTEMPTS);
      setError(null);
    } catch (e) {
      setError(errorMessage(e));
    }
  }, [client, selected, key, attemptLimit]);

  const select = (id: string | null) => {
    setSelected(id);
    setAttemptLimit(CALLBACK_ATTEMPT_LIMITS.pageDefault);
  };

  useEffect(() => {
    // First load on the next tick (not inside the effect body), then refresh on a timer.
    const first = setTimeout(() => void load(), 0);
    const timer = setInterval(() => void load(), 1500);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [load]);

  const resend = async (id: string) => {
    setResendError(null);
    try {
      await client.retryCallback(id);
      await load();
    } catch (e) {
      setResendError(errorMessage(e));
    }
  };
  const showMore = () =>
    setAttemptLimit(
      Math.min(attemptLimit + CALLBACK_ATTEMPT_LIMITS.pageDefault, CALLBACK_ATTEMPT_LIMITS.page),
    );

  return {
    requests,
    selected,
    select,
    attemptList,
    attemptLimit,
    showMore,
    error,
    resendError,
    resend,
    key,
    setKey,
    keys,
  };
}
