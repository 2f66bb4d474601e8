/** GET /api/v1/usage: the key's balance and a page of its ledger, newest first. */

import type { FastifyInstance } from 'fastify';
import { UsageSchema, UsageQuerySchema, type Usage } from '../../../shared/api';
import { toCredits } from '../../../shared/pricing';
import type { Store } from '../../store';
import type { Auth } from '../auth';
import { sendResult } from '../reply';
import { parseListQuery } from '../validation';
import { toLedgerEntry } from '../views';
import { apiRoute, KEY } from '../openapi';

const DEFAULT_PAGE_SIZE = 50;

export function registerUsageRoute(
  app: FastifyInstance,
  { store, auth }: { store: Store; auth: Auth },
): void {
  app.get(
    '/api/v1/usage',
    {
      schema: apiRoute({
        operationId: 'getUsage',
        tag: 'server',
        summary: "The key's balance and a page of its ledger",
        security: KEY,
        querystring: UsageQuerySchema,
        result: UsageSchema,
      }),
    },
    async (request, reply) => {
      const key = await auth.requireKey(request);
      const { page, pageSize, offset } = parseListQuery(UsageQuerySchema, request.query, DEFAULT_PAGE_SIZE);
      const { rows, total } = await store.ledger.list(key.id, pageSize, offset);
      const result: Usage = {
        balance: toCredits(key.balance_milli),
        balance_milli: key.balance_milli,
        queued: key.queued,
        ledger: rows.map(toLedgerEntry),
        page,
        page_size: pageSize,
        total,
      };
      return sendResult(reply, result);
    },
  );
}
