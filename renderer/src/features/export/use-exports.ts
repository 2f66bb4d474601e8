import { useCallback, useEffect, useState } from 'react';
import type { ExportBody, ExportRecord } from '../../../../electron/shared/book-exports';
import { errorMessage } from '../../lib/api-client';
import { createFollower } from '../../lib/follow';
import { useClient, useStudio } from '../../stores';

export const isFinal = (record: ExportRecord) => record.status === 'SUCCESS' || record.status === 'FAILURE';

/**
 * The Export page's exports: the one shown (followed until it ends: `export` events move it, a
 * re-read every second backs them up), the recent ones, the page's one error, and what starts,
 * cancels, opens and removes one. Leaving the page stops following.
 */
export function useExports() {
  const client = useClient();
  const refreshSession = useStudio((s) => s.refreshSession);
  const [record, setRecord] = useState<ExportRecord | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [recent, setRecent] = useState<ExportRecord[]>([]);
  /** Follows one export at a time: a newer one makes the older loop stop. */
  const [follower] = useState(createFollower);

  const fail = useCallback((e: unknown) => setError(errorMessage(e)), []);

  const loadRecent = useCallback(async () => {
    try {
      setRecent((await client.listExports(1, 10)).items);
    } catch (e) {
      fail(e);
    }
  }, [client, fail]);

  useEffect(() => {
    // First load on the next tick (not inside the effect body); leaving the page stops following.
    const first = setTimeout(() => void loadRecent(), 0);
    return () => {
      clearTimeout(first);
      follower.stop();
    };
  }, [loadRecent, follower]);

  /** Follows an export: `export` events move the bar; a re-read every second backs them up. */
  const follow = useCallback(
    (exportId: string) =>
      follower.follow({
        pollMs: 1000,
        read: () => client.exportRecord(exportId),
        show: setRecord,
        isFinal,
        done() {
          void refreshSession();
          void loadRecent();
        },
        fail,
        listen: ({ signal, current, wake }) =>
          client.streamEvents(
            {
              onExport(event) {
                if (!current() || event.export_id !== exportId) return;
                setRecord((r) => (r && r.export_id === exportId ? { ...r, ...event } : r));
                if (event.status === 'SUCCESS' || event.status === 'FAILURE') wake();
              },
            },
            signal,
          ),
      }),
    [client, fail, follower, loadRecent, refreshSession],
  );

  const start = async (body: ExportBody) => {
    setError(null);
    setBusy(true);
    try {
      const accepted = await client.startExport(body);
      setRecord(accepted);
      void refreshSession();
      void loadRecent();
      void follow(accepted.export_id);
    } catch (e) {
      fail(e);
    } finally {
      setBusy(false);
    }
  };

  const cancel = async () => {
    if (!record) return;
    try {
      setRecord(await client.cancelExport(record.export_id));
      void refreshSession();
      void loadRecent();
    } catch (e) {
      fail(e);
    }
  };

  const remove = async (exportId: string) => {
    try {
      await client.removeExport(exportId);
      if (record?.export_id === exportId) {
        follower.stop();
        setRecord(null);
      }
      await loadRecent();
    } catch (e) {
      fail(e);
    }
  };
  const open = (r: ExportRecord) => {
    setRecord(r);
    void follow(r.export_id);
  };

  return { record, error, setError, fail, busy, recent, start, cancel, remove, open };
}
