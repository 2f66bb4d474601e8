import { useCallback, useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { RequestDetail, RequestList, RequestStatus } from '../../../../electron/shared/api';
import { KEY_FILTER_ALL } from '../../../../electron/shared/api';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useKeyFilter } from '../../components/KeySelect';
import { errorMessage } from '../../lib/api-client';
import { useClient, useStudio } from '../../stores';
import { HistoryFilters } from './HistoryFilters';
import { HistoryTable } from './HistoryTable';
import { RequestDetails } from './RequestDetails';

const PAGE_SIZE = 20;

/** Every request of a key (or of all), newest first, paged and filterable; open one to replay it. */
export function HistoryView() {
  const client = useClient();
  const openRequest = useStudio((s) => s.openRequest);
  const draft = useStudio((s) => s.text);
  // The request whose Open waits for an answer: its text and settings would replace a draft.
  const [opening, setOpening] = useState<RequestDetail | null>(null);
  /** Opens a request in the Studio with its text and settings, asking first when a different draft would be replaced. */
  const open = (r: RequestDetail) => {
    if (draft.trim() === '' || draft === r.input_text) void openRequest(r.request_id, { restore: true });
    else setOpening(r);
  };
  const selectedId = useStudio((s) => s.historyRequestId);
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<RequestStatus | ''>('');
  const [voice, setVoice] = useState('');
  const [list, setList] = useState<RequestList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { key, setKey, keys } = useKeyFilter();
  const allKeys = key === KEY_FILTER_ALL;

  const load = useCallback(async () => {
    try {
      setList(await client.listRequests({ page, page_size: PAGE_SIZE, status, voice_code: voice, key }));
      setError(null);
    } catch (e) {
      setError(errorMessage(e));
    }
  }, [client, page, status, voice, key]);

  useEffect(() => {
    // First load on the next tick (not inside the effect body), then refresh on a timer.
    const first = setTimeout(() => void load(), 0);
    // Unfinished requests move on their own: refresh while the page is open.
    const timer = setInterval(() => void load(), 3000);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [load]);

  const pages = list ? Math.max(1, Math.ceil(list.total / PAGE_SIZE)) : 1;
  /** A filter changed: back to the first page. */
  const filter =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };

  return (
    <>
      <div className="page-head">
        <div>
          <h1>
            <FormattedMessage id="history.title" defaultMessage="History" />
          </h1>
          <p>
            <FormattedMessage
              id="history.intro"
              defaultMessage="Every request of the chosen API key (the studio's by default, or an app's, or all), newest first."
            />
          </p>
        </div>
        <button type="button" onClick={() => void load()}>
          <FormattedMessage id="history.refresh" defaultMessage="Refresh" />
        </button>
      </div>
      {selectedId && <RequestDetails key={selectedId} id={selectedId} />}
      <OpenRequestQuestion opening={opening} onDone={() => setOpening(null)} />
      <div className="panel">
        <HistoryFilters
          keyFilter={key}
          keys={keys}
          status={status}
          voice={voice}
          onKey={filter(setKey)}
          onStatus={filter(setStatus)}
          onVoice={filter(setVoice)}
        />
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        {list && list.items.length === 0 && (
          <p className="muted">
            <FormattedMessage
              id="history.empty"
              defaultMessage="No requests of this key yet. Generate one in the Studio."
            />
          </p>
        )}
        {list && list.items.length > 0 && (
          <HistoryTable items={list.items} allKeys={allKeys} keys={keys} onOpen={open} />
        )}
        <HistoryPager page={page} pages={pages} total={list?.total} setPage={setPage} />
      </div>
    </>
  );
}

/** Asks before a request's text and settings replace a different draft in the Studio. */
function OpenRequestQuestion({ opening, onDone }: { opening: RequestDetail | null; onDone(): void }) {
  const intl = useIntl();
  const draft = useStudio((s) => s.text);
  const openRequest = useStudio((s) => s.openRequest);
  return (
    <ConfirmDialog
      request={
        opening && {
          title: intl.formatMessage({ id: 'history.replace.title', defaultMessage: 'Replace the draft?' }),
          message: intl.formatMessage(
            {
              id: 'history.replace.message',
              defaultMessage:
                "The Studio's draft ({count, plural, one {# character} other {# characters}}) will be replaced by this request's text and settings (voice, speed, pitch, volume, format, model). Undo in the Studio brings the draft back.",
            },
            { count: [...draft].length },
          ),
          confirmLabel: intl.formatMessage({
            id: 'history.replace.confirm',
            defaultMessage: 'Replace draft',
          }),
        }
      }
      onCancel={onDone}
      onConfirm={() => {
        if (opening) void openRequest(opening.request_id, { restore: true });
        onDone();
      }}
    />
  );
}

/** Previous page, where we are (and how many requests in all), Next page. */
function HistoryPager({
  page,
  pages,
  total,
  setPage,
}: {
  page: number;
  pages: number;
  total: number | undefined;
  setPage(change: (page: number) => number): void;
}) {
  return (
    <div className="row" style={{ marginTop: 12 }}>
      <button type="button" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
        <FormattedMessage id="history.page.previous" defaultMessage="Previous page" />
      </button>
      <span className="muted">
        <FormattedMessage
          id="history.page.position"
          defaultMessage="Page {page, number} of {pages, number}"
          values={{ page, pages }}
        />
        {total !== undefined && (
          <>
            {' · '}
            <FormattedMessage
              id="history.page.total"
              defaultMessage="{total, plural, one {# request} other {# requests}}"
              values={{ total }}
            />
          </>
        )}
      </span>
      <button type="button" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
        <FormattedMessage id="history.page.next" defaultMessage="Next page" />
      </button>
    </div>
  );
}
