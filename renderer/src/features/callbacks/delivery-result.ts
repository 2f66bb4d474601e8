/**
 * A callback attempt's result as the Callbacks view shows it: worded from the stable code the
 * server records beside its English words (`result_code`, electron/core/jobs/delivery.ts), in the
 * interface's language. An HTTP answer keeps the recorded `HTTP <status> <standard reason>` (the
 * protocol's words, like a licence's name); an attempt recorded before codes were (null) shows
 * its recorded text as it came.
 */

import { defineMessages, type IntlShape } from 'react-intl';
import type { CallbackAttempt, CallbackResultCode } from '../../../../electron/shared/api';

/** Each failure without an HTTP answer, by code (the timeouts and `other` are worded below). */
const FAILURES = defineMessages({
  refused: { id: 'callbacks.result.refused', defaultMessage: 'connection refused' },
  reset: { id: 'callbacks.result.reset', defaultMessage: 'connection reset before a complete answer' },
  closed: { id: 'callbacks.result.closed', defaultMessage: 'connection closed before a complete answer' },
  host_unreachable: { id: 'callbacks.result.hostUnreachable', defaultMessage: 'host unreachable' },
  network_unreachable: { id: 'callbacks.result.networkUnreachable', defaultMessage: 'network unreachable' },
  host_not_found: { id: 'callbacks.result.hostNotFound', defaultMessage: 'host name not found' },
  host_not_found_temporary: {
    id: 'callbacks.result.hostNotFoundTemporary',
    defaultMessage: 'host name not found (temporary failure)',
  },
  aborted: { id: 'callbacks.result.aborted', defaultMessage: 'connection aborted' },
  cert_expired: { id: 'callbacks.result.certExpired', defaultMessage: 'TLS certificate expired' },
  cert_self_signed: {
    id: 'callbacks.result.certSelfSigned',
    defaultMessage: 'TLS certificate not trusted (self-signed)',
  },
  cert_untrusted: { id: 'callbacks.result.certUntrusted', defaultMessage: 'TLS certificate not trusted' },
  cert_host: {
    id: 'callbacks.result.certHost',
    defaultMessage: "TLS certificate not valid for the callback's host name",
  },
  not_allowed: { id: 'callbacks.result.notAllowed', defaultMessage: 'not allowed' },
} satisfies Partial<Record<CallbackResultCode, unknown>>);

const TIMEOUTS = defineMessages({
  connect: { id: 'callbacks.result.timeoutConnect', defaultMessage: 'timeout: could not connect' },
  answer: { id: 'callbacks.result.timeoutAnswer', defaultMessage: 'timeout: no complete answer' },
});

/** The attempt's timeout, ms, when its record names it (a number, whatever the words around it). */
function timeoutMs(result: string): number | undefined {
  const figure = /(\d+) ms$/.exec(result);
  return figure ? Number(figure[1]) : undefined;
}

/** The result in the interface's language. */
export function deliveryResultText(
  attempt: Pick<CallbackAttempt, 'result' | 'result_code'>,
  intl: IntlShape,
): string {
  const { result, result_code: code } = attempt;
  if (code === null || code === 'http') return result;
  if (code === 'timeout_connect' || code === 'timeout_answer') {
    const ms = timeoutMs(result);
    const connect = code === 'timeout_connect';
    if (ms === undefined) return intl.formatMessage(connect ? TIMEOUTS.connect : TIMEOUTS.answer);
    return connect
      ? intl.formatMessage(
          {
            id: 'callbacks.result.connectWithin',
            defaultMessage: 'timeout: could not connect within {ms, number} ms',
          },
          { ms },
        )
      : intl.formatMessage(
          {
            id: 'callbacks.result.answerWithin',
            defaultMessage: 'timeout: no complete answer within {ms, number} ms',
          },
          { ms },
        );
  }
  if (code === 'other')
    return intl.formatMessage(
      { id: 'callbacks.result.other', defaultMessage: 'connection failed: {detail}' },
      { detail: result },
    );
  return intl.formatMessage(FAILURES[code]);
}
