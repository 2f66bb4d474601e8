/** The pronunciation lexicon: entries, import, export, and previews of an entry spoken. */

import type { LexiconEntryInput } from '../../../electron/shared/lexicon';
import type { ApiClient, ApiTransport } from './api-client';

export function lexiconMethods(
  transport: ApiTransport,
): Pick<
  ApiClient,
  | 'lexicon'
  | 'addLexiconEntry'
  | 'updateLexiconEntry'
  | 'removeLexiconEntry'
  | 'importLexicon'
  | 'lexiconExport'
  | 'lexiconPreviewUrl'
  | 'lexiconPreview'
> {
  const { baseUrl, send, call, query, elementQuery } = transport;
  const previewPath = (entry: string | LexiconEntryInput) =>
    typeof entry === 'string'
      ? `/api/v1/lexicon/${encodeURIComponent(entry)}/preview`
      : '/api/v1/lexicon/preview';
  return {
    lexicon: (q = {}) => call('GET', `/api/v1/lexicon${query(q)}`),
    addLexiconEntry: (entry) => call('POST', '/api/v1/lexicon', entry),
    updateLexiconEntry: (id, entry) => call('PUT', `/api/v1/lexicon/${encodeURIComponent(id)}`, entry),
    removeLexiconEntry: (id) => call('DELETE', `/api/v1/lexicon/${encodeURIComponent(id)}`),
    importLexicon: (body) => call('POST', '/api/v1/lexicon/import', body),
    lexiconExport: async (q = {}) => (await send('GET', `/api/v1/lexicon/export${query(q)}`)).blob(),
    lexiconPreviewUrl: (entry, body = {}) =>
      `${baseUrl}${previewPath(entry)}${elementQuery(typeof entry === 'string' ? body : { ...entry, ...body })}`,
    async lexiconPreview(entry, body = {}) {
      const payload = typeof entry === 'string' ? body : { ...entry, ...body };
      return (await send('POST', previewPath(entry), payload)).blob();
    },
  };
}
