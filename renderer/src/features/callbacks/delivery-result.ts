/**
 * A callback attempt's result as the Callbacks view shows it: the server records it in English
 * words (electron/core/jobs/delivery.ts: "connection refused", "timeout: could not connect within
 * 10000 ms", "not allowed", "HTTP 500 Internal Server Error"); the kinds of failure it names are
 * said here in the interface's language. An HTTP answer keeps its standard reason phrase (the
 * protocol's words, like a licence's name); any other text is shown as it came.
 */

import { defineMessages, type IntlShape } from 'react-intl';

/** The server's words for a failure without an HTTP answer; each message's English is those words. */
const FAILURES = defineMessages({
  refused: { id: 'callbacks.result.refused', defaultMessage: 'connection refused' },
  reset: { id: 'callbacks.result.reset', defaultMessage: 'connection reset before a complete answer' },
  closed: { id: 'callbacks.result.closed', defaultMessage: 'connection closed before a complete answer' },
  hostUnreachable: { id: 'callbacks.result.hostUnreachable', defaultMessage: 'host unreachable' },
  networkUnreachable: { id: 'callbacks.result.networkUnreachable', defaultMessage: 'network unreachable' },
  hostNotFound: { id: 'callbacks.result.hostNotFound', defaultMessage: 'host name not found' },
  hostNotFoundTemporary: {
    id: 'callbacks.result.hostNotFoundTemporary',
    defaultMessage: 'host name not found (temporary failure)',
  },
  timeoutConnect: { id: 'callbacks.result.timeoutConnect', defaultMessage: 'timeout: could not connect' },
  aborted: { id: 'callbacks.result.aborted', defaultMessage: 'connection aborted' },
  certExpired: { id: 'callbacks.result.certExpired', defaultMessage: 'TLS certificate expired' },
  certSelfSigned: {
    id: 'callbacks.result.certSelfSigned',
    defaultMessage: 'TLS certificate not trusted (self-signed)',
  },
  certUntrusted: { id: 'callbacks.result.certUntrusted', defaultMessage: 'TLS certificate not trusted' },
  certHost: {
    id: 'callbacks.result.certHost',
    defaultMessage: "TLS certificate not valid for the callback's host name",
  },
  notAllowed: { id: 'callbacks.result.notAllowed', defaultMessage: 'not allowed' },
});

/** The result in the interface's language. */
export function deliveryResultText(result: string, intl: IntlShape): string {
  const failure = Object.values(FAILURES).find((m) => m.defaultMessage === result);
  if (failure) return intl.formatMessage(failure);
  const within = /^timeout: (could not connect|no complete answer) within (\d+) ms$/.exec(result);
  if (within)
    return within[1] === 'could not connect'
      ? intl.formatMessage(
          {
            id: 'callbacks.result.connectWithin',
            defaultMessage: 'timeout: could not connect within {ms, number} ms',
          },
          { ms: Number(within[2]) },
        )
      : intl.formatMessage(
          {
            id: 'callbacks.result.answerWithin',
            defaultMessage: 'timeout: no complete answer within {ms, number} ms',
          },
          { ms: Number(within[2]) },
        );
  return result;
}
