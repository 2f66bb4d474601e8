/**
 * The manuscript reader's child process (started by reader-process.ts with child_process.fork):
 * receives one file's bytes, format and options over IPC, reads them with the format's reader
 * (read-format.ts), answers one message and exits (reader-child-main.ts). Whatever a hostile file
 * costs (a FlateDecode bomb in a PDF, markup nested without end, a million tiny paragraphs) is
 * spent here, where the parent can stop it.
 */

import type { ManuscriptFormat, ManuscriptOptions } from '../../shared/manuscript';
import { readFormat } from './read-format';
import { answerOneRequest } from './reader-child-main';

/** The one message the parent sends. */
export interface ReaderChildRequest {
  fileName: string;
  format: ManuscriptFormat;
  bytes: Uint8Array;
  options: ManuscriptOptions;
}

answerOneRequest(
  (request: ReaderChildRequest) =>
    readFormat(request.format, new Uint8Array(request.bytes), request.fileName, request.options),
  'MANUSCRIPT_INVALID',
);
