/**
 * GET /api/v1/usage: the key's balance and a page of its ledger, newest first. The studio may
 * ask for another key's (`key=<id>`) or every key's (`key=all`: live keys' balances together).
 */

import type { FastifyInstance } from 'fastify';
import { UsageSchema, UsageQuerySchema, type Usage } from '../../../shared/api';
import { toCredits } from '../../../shared/pricing';
import type { Store } from '../../store';
import { liveBalanceMilli } from '../../jobs';
import { keyFilter, type Auth } from '../auth';
import { sendResult } from '../reply';
import { listPage, listQueryWording } from '../validation';
import { toLedgerEntry } from '../views';
import { apiRoute, KEY, typed } from '../openapi';

const DEFAULT_PAGE_SIZE = 50;

export function registerUsageRoute(
  app: FastifyInstance,
  { store, auth }: { store: Store; auth: Auth },
): void {
  typed(app).get(
    '/api/v1/usage',
    {
      schema: apiRoute({
        operationId: 'getUsage',
        tag: 'server',
        summary: "The key's balance and a page of its ledger",
        security: KEY,
        querystring: UsageQuerySchema,
        result: UsageSchema,
        validate: { wording: listQueryWording },
      }),
    },
    async (request, reply) => {
      const own = await auth.requireKey(request);
      const { page, pageSize, offset } = listPage(request.query, DEFAULT_PAGE_SIZE);
      const key = await keyFilter(store, request, own, request.query.key);
      const { rows, total } = await store.ledger.list(key?.id, pageSize, offset);
      const balanceMilli = key ? key.balance_milli : liveBalanceMilli(await store.keys.list());
      const result: Usage = {
        balance: toCredits(balanceMilli),
        balance_milli: balanceMilli,
        queued: key ? key.queued : await store.keys.totalQueued(),
        ledger: rows.map(toLedgerEntry),
        page,
        page_size: pageSize,
        total,
      };
      return sendResult(reply, result);
    },
  );
}
