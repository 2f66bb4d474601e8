/** Books: a manuscript read into chapters, and the audiobook exports of requests. */

import type { ApiClient, ApiTransport } from './api-client';

export function bookMethods(
  transport: ApiTransport,
): Pick<
  ApiClient,
  'readManuscript' | 'startExport' | 'exportRecord' | 'listExports' | 'cancelExport' | 'removeExport'
> {
  const { call, query } = transport;
  return {
    readManuscript: (file, fileName) =>
      call('POST', `/api/v1/manuscripts/read${query({ file_name: fileName })}`, undefined, {
        body: file,
        type: 'application/octet-stream',
      }),
    startExport: (body) => call('POST', '/api/v1/exports', body),
    exportRecord: (id) => call('GET', `/api/v1/exports/${encodeURIComponent(id)}`),
    listExports: (page = 1, pageSize = 20) =>
      call('GET', `/api/v1/exports?page=${page}&page_size=${pageSize}`),
    cancelExport: (id) => call('POST', `/api/v1/exports/${encodeURIComponent(id)}/cancel`, {}),
    removeExport: (id) => call('DELETE', `/api/v1/exports/${encodeURIComponent(id)}`),
  };
}
