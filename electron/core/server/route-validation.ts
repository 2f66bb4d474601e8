/**
 * Fastify's validation of a route's body, query string and path parameters against the TypeBox
 * schemas its `apiRoute`/`openAiRoute` carries, and the one formatter of what fails: the first
 * problem, as the API's error (`{status: 0, error_code, error_message}` under /api, OpenAI's
 * shape under /v1: the error handler picks the shape by path) naming the field and its rule.
 *
 * Validation runs after `onRequest`, where keys and sessions are checked (auth.ts:
 * `checkBeforeBody`), so a wrong key with a bad body still gets the key's error; handlers
 * receive the checked values, typed from the same schemas through the TypeBox type provider.
 * Nothing is coerced (a query's numbers stay strings, as their schemas say); the submit's
 * strings-for-numbers are read by its own `preValidation` step (validation.ts:
 * `readSubmitStrings`).
 *
 * A route opts in with `validate` in its RouteDoc (routes not converted yet keep their schema as
 * documentation only), and may word its errors (`Wording`) as its answers always have; what it
 * leaves to the default reads `<field>: <TypeBox's sentence>.`.
 */

import { Kind, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/value';
import type { FastifySchemaCompiler } from 'fastify';
import { AppError } from '../../shared/errors';

/** The part of a request a schema checks (fastify's names). */
export type RequestPart = 'body' | 'querystring' | 'params' | 'headers';

/** The first place a request part breaks its schema. */
export interface SchemaProblem {
  part: RequestPart;
  /** The top-level field ('' for the part itself: a body that is not an object). */
  field: string;
  /** Where in the part, a JSON pointer (`/base/parts/0/voice`; '' for the part itself). */
  path: string;
  /** TypeBox's sentence, or the words of a choice ("must be one of a, b"). */
  message: string;
  /** The field is required and absent. */
  missing: boolean;
  /** The part as sent (null when absent). */
  value: unknown;
}

/** How a route words a problem: an AppError, or undefined for the default wording. */
export type Wording = (problem: SchemaProblem) => AppError | undefined;

/** What a route's `validate` says: its wording, and whether an absent body is `{}`. */
export interface Validation {
  wording?: Wording;
  /** An absent body is taken as `{}` (routes whose every field is optional). */
  emptyBodyIsObject?: boolean;
}

const VALIDATION = Symbol('route-validation');

type Validated = TSchema & { [VALIDATION]?: Validation };

/** A copy of `schema` that fastify validates (with the route's wording). */
export function validated<T extends TSchema>(schema: T, validation: Validation): T {
  return { ...schema, [VALIDATION]: validation };
}

/** A JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first problem of `error` (TypeBox's), as the formatter reads it. */
export function schemaProblem(part: RequestPart, error: ValueError, value: unknown): SchemaProblem {
  // A JSON pointer: "/field/…", with "~1" for "/" and "~0" for "~" inside a name.
  const field = (error.path.split('/')[1] ?? '').replaceAll('~1', '/').replaceAll('~0', '~');
  // A choice among words (a union of literals): name the words rather than "Expected union value".
  const choices = (error.schema as { anyOf?: { const?: unknown }[] }).anyOf;
  const message =
    choices?.length && choices.every((choice) => typeof choice.const === 'string')
      ? `must be one of ${choices.map((choice) => String(choice.const)).join(', ')}`
      : error.message;
  const missing = error.type === ValueErrorType.ObjectRequiredProperty && error.path.split('/').length === 2;
  return { part, field, path: error.path, message, missing, value };
}

const PART_NAMES: Record<RequestPart, string> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'headers',
};

/**
 * The one formatter: the route's wording, else a body that is not a JSON object is
 * INVALID_JSON, anything else INVALID_FIELD `<field>: <rule>.` with `details.field`.
 */
export function formatSchemaProblem(problem: SchemaProblem, wording?: Wording): AppError {
  const worded = wording?.(problem);
  if (worded) return worded;
  if (problem.part === 'body' && !isPlainObject(problem.value))
    return new AppError('INVALID_JSON', 'The body must be a JSON object.');
  return new AppError('INVALID_FIELD', `${problem.field || PART_NAMES[problem.part]}: ${problem.message}.`, {
    field: problem.field,
  });
}

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

/**
 * Fastify's validator compiler: a schema marked by `validated` is checked with TypeBox's
 * compiler (no coercion, no defaults, nothing removed); the failure is the formatter's
 * AppError, which fastify hands to the error handler. Other schemas (routes still checking by
 * hand, raw bodies) pass as sent.
 */
export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const validation = (schema as Validated)[VALIDATION];
  if (!validation || !(Kind in schema)) return (data) => ({ value: data });
  let check = compiled.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  const part = (httpPart ?? 'body') as RequestPart;
  return (data: unknown) => {
    const value = data ?? (part === 'body' && !validation.emptyBodyIsObject ? null : {});
    if (check.Check(value)) return { value };
    const first = check.Errors(value).First()!;
    return { error: formatSchemaProblem(schemaProblem(part, first, value), validation.wording) };
  };
};

/**
 * The wording of a body with a sentence per field (`rules`, or `rule(field, value)` when the
 * sentence depends on what was sent): a required field absent is MISSING_FIELD
 * `<field> is required.`, a field that breaks its schema INVALID_FIELD `<rule>.`, a field
 * without a sentence `<TypeBox's sentence>.`.
 */
export function ruleWording(
  rules: Readonly<Record<string, string>>,
  rule: (field: string, value: unknown) => string = (field) => rules[field]!,
): Wording {
  return ({ part, field, message, missing, value }) => {
    if (part !== 'body' || !isPlainObject(value)) return undefined;
    if (missing) return new AppError('MISSING_FIELD', `${field} is required.`, { field });
    const sentence = Object.hasOwn(rules, field) ? rule(field, value[field]) : message;
    return new AppError('INVALID_FIELD', `${sentence}.`, { field });
  };
}
