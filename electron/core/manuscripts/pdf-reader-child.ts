/**
 * The PDF reader's child process (started by pdf.ts with child_process.fork): receives the file's
 * bytes over IPC, reads them with pdf-extract.ts, answers one message and exits. Whatever a hostile
 * PDF costs (FlateDecode bombs run to gigabytes in every PDF library) is spent here, where the
 * parent can stop it.
 */

import { isAppError } from '../../shared/errors';
import type { Manuscript } from '../../shared/manuscript';
import { extractPdf } from './pdf-extract';

/** The one message the parent sends. */
export interface PdfChildRequest {
  fileName: string;
  bytes: Uint8Array;
}

/** The one message the child answers. */
export type PdfChildReply =
  | { ok: true; manuscript: Manuscript }
  | { ok: false; code: string; message: string; details?: Record<string, unknown> };

if (!process.send)
  throw new Error('pdf-reader-child must be started with an IPC channel (child_process.fork)');

process.once('message', (request: PdfChildRequest) => {
  void answer(request);
});

async function answer(request: PdfChildRequest): Promise<void> {
  let reply: PdfChildReply;
  try {
    reply = { ok: true, manuscript: await extractPdf(new Uint8Array(request.bytes), request.fileName) };
  } catch (error) {
    reply = isAppError(error)
      ? {
          ok: false,
          code: error.code,
          message: error.message,
          details: error.details as Record<string, unknown>,
        }
      : {
          ok: false,
          code: 'MANUSCRIPT_INVALID',
          message: `"${request.fileName}" cannot be read as PDF: ${error instanceof Error ? error.message : String(error)}`,
        };
  }
  process.send!(reply, () => process.exit(0));
}
