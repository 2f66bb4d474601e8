/**
 * What a `project` subcommand is: its options, its positionals and what it runs with. The
 * subcommands live in project-command.ts (import, list, show, edit, delete) and
 * project-render-command.ts (render, export); both build on this contract.
 */

import type { ProjectService } from '../projects';
import type { Store } from '../store';

/** What a subcommand gets: the parsed command line and the opened project service. */
export interface ProjectCommandContext {
  positionals: string[];
  values: Record<string, string | boolean | undefined>;
  store: Store;
  projects: ProjectService;
  /** The studio's key: the owner of the projects the command sees. */
  keyId: string;
  dataDir: string;
}

export interface ProjectSubcommand {
  /** Options beyond --data-dir and --database. */
  options: Record<string, { type: 'string' | 'boolean' }>;
  /** How many positionals it takes. */
  positionals: number;
  run(context: ProjectCommandContext): Promise<unknown>;
}
