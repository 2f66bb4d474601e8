/**
 * An error's particulars as they may leave this machine (`error_details` of an API error body
 * and of a failed record: docs/API.md, "Errors"): plain values only, no path of this machine.
 */

import type { ErrorDetails } from '../../shared/api';
import { isAppError, type AppError } from '../../shared/errors';
import { redactPaths } from './redact-paths';

/** Details that stay on this machine: where a file is, a process id, the error underneath. */
const PRIVATE_DETAILS = new Set(['cause', 'path', 'pid', 'stack', 'message']);
/** A string detail's length at most, characters: a name, a tag, a host, a value as given. */
const MAX_DETAIL_CHARS = 200;

/**
 * The error's details as `error_details` (docs/API.md, "Errors"): plain values only (a list or
 * an object is left out), strings without paths of this machine (a `file` is its own name), at
 * most 200 characters each; undefined when nothing is left.
 */
export function errorDetails(error: AppError): ErrorDetails | undefined {
  const out: ErrorDetails = {};
  for (const [name, value] of Object.entries(error.details ?? {})) {
    if (PRIVATE_DETAILS.has(name)) continue;
    if (typeof value === 'number' && Number.isFinite(value)) out[name] = value;
    else if (typeof value === 'boolean') out[name] = value;
    else if (typeof value === 'string') {
      const text = name === 'file' ? (value.split(/[/\\]/).pop() ?? '') : redactPaths(value);
      out[name] = text.slice(0, MAX_DETAIL_CHARS);
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A failed record's stored details (JSON text, null when there are none) from what it failed with. */
export function storedErrorDetails(error: unknown): string | null {
  const details = isAppError(error) ? errorDetails(error) : undefined;
  return details ? JSON.stringify(details) : null;
}

/**
 * A stored record's details read back as the field of its answer: `{error_details}`, or
 * nothing when there are none (or the text is not an object).
 */
export function storedDetails(text: string | null | undefined): { error_details?: ErrorDetails } {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? { error_details: value as ErrorDetails }
      : {};
  } catch {
    return {};
  }
}
