/**
 * The project archive reader's child process (started by project-archive.ts with
 * runInChild, in its turn among the manuscript readers): reads, checks and unpacks one archive
 * (archive-reader.ts) and answers its rows. Whatever a hostile archive costs (a project.json of
 * 160 MiB to parse and check, entries by the hundred thousand) is spent here, where the parent
 * can stop it; the parent's own thread only stores the rows and moves the staging folder.
 */

import { answerOneRequest } from '../manuscripts';
import { readArchive } from './archive-reader';

answerOneRequest(readArchive, 'MANUSCRIPT_INVALID');
