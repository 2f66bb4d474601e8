/**
 * The manuscript reader's child process (started by reader-process.ts with child_process.fork):
 * receives one file's bytes, format and options over IPC, reads them with the format's reader
 * (read-format.ts), answers one message and exits. Whatever a hostile file costs (a FlateDecode
 * bomb in a PDF, markup nested without end, a million tiny paragraphs) is spent here, where the
 * parent can stop it. The child ends with its parent: when the IPC channel closes (the parent
 * exited or killed it), it exits.
 */

import { toWireError } from '../../shared/errors';
import type { Manuscript, ManuscriptFormat, ManuscriptOptions } from '../../shared/manuscript';
import { readFormat } from './read-format';

/** The one message the parent sends. */
export interface ReaderChildRequest {
  fileName: string;
  format: ManuscriptFormat;
  bytes: Uint8Array;
  options: ManuscriptOptions;
}

/** The one message the child answers. */
export type ReaderChildReply =
  | { ok: true; manuscript: Manuscript }
  | { ok: false; code: string; message: string; details?: Record<string, unknown> };

if (!process.send)
  throw new Error('manuscript-reader-child must be started with an IPC channel (child_process.fork)');

process.once('disconnect', () => process.exit(1));
process.once('message', (request: ReaderChildRequest) => {
  void answer(request);
});

async function answer(request: ReaderChildRequest): Promise<void> {
  let reply: ReaderChildReply;
  try {
    const bytes = new Uint8Array(request.bytes);
    reply = {
      ok: true,
      manuscript: await readFormat(request.format, bytes, request.fileName, request.options),
    };
  } catch (error) {
    const { code, message } = toWireError(error, 'MANUSCRIPT_INVALID');
    const details = (error as { details?: Record<string, unknown> }).details;
    reply = { ok: false, code, message, ...(details ? { details } : {}) };
  }
  process.send!(reply, () => process.exit(0));
}
