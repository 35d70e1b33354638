import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/**
 * A loopback stand-in for the few Stripe API endpoints the official SDK calls here (customers,
 * checkout sessions, billing-portal sessions), answering in Stripe's JSON shapes. Every request is
 * recorded with its form-encoded parameters flattened (`metadata[user_id]`, `line_items[0][price]`).
 */
export interface RecordedStripeRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  params: Record<string, string>;
}

export interface StripeFake {
  baseUrl: string;
  requests: RecordedStripeRequest[];
  /** 'ok' answers; 'fail' answers 500 api_error; 'hang' never answers (timeouts). */
  mode: 'ok' | 'fail' | 'hang';
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

export async function startStripeFake(): Promise<StripeFake> {
  const customersByIdempotencyKey = new Map<string, Record<string, unknown>>();
  const hanging = new Set<ServerResponse>();
  const fake: StripeFake = { baseUrl: '', requests: [], mode: 'ok', close: async () => undefined };

  const answer = (req: IncomingMessage, res: ServerResponse, params: Record<string, string>) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
      res.end(JSON.stringify(body));
    };
    if (fake.mode === 'hang') {
      hanging.add(res);
      return;
    }
    if (fake.mode === 'fail') {
      return send(500, { error: { type: 'api_error', message: 'Something went wrong on the fake.' } });
    }
    const metadata = prefixed(params, 'metadata');
    if (req.method === 'POST' && req.url === '/v1/customers') {
      const key = String(req.headers['idempotency-key'] ?? '');
      const existing = key ? customersByIdempotencyKey.get(key) : undefined;
      const customer = existing ?? {
        id: id('cus'),
        object: 'customer',
        created: now(),
        email: params.email ?? null,
        metadata,
        livemode: false,
      };
      if (key) customersByIdempotencyKey.set(key, customer);
      return send(200, customer);
    }
    if (req.method === 'POST' && req.url === '/v1/checkout/sessions') {
      const sessionId = id('cs_test');
      return send(200, {
        id: sessionId,
        object: 'checkout.session',
        mode: params.mode,
        customer: params.customer ?? null,
        client_reference_id: params.client_reference_id ?? null,
        success_url: params.success_url,
        cancel_url: params.cancel_url,
        metadata,
        status: 'open',
        url: `https://checkout.stripe.test/c/pay/${sessionId}`,
        livemode: false,
      });
    }
    if (req.method === 'POST' && req.url === '/v1/billing_portal/sessions') {
      const sessionId = id('bps');
      return send(200, {
        id: sessionId,
        object: 'billing_portal.session',
        customer: params.customer,
        return_url: params.return_url,
        created: now(),
        url: `https://billing.stripe.test/p/session/${sessionId}`,
        livemode: false,
      });
    }
    send(404, {
      error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.url}).` },
    });
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      fake.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, params });
      answer(req, res, params);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return fake;
}

function prefixed(params: Record<string, string>, name: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = new RegExp(`^${name}\\[([^\\]]+)\\]$`);
  for (const [key, value] of Object.entries(params)) {
    const match = re.exec(key);
    if (match?.[1]) out[match[1]] = value;
  }
  return out;
}

/** Stripe's signature scheme: `t=<unix>,v1=<hex HMAC-SHA256("<t>.<body>", secret)>`. */
export function signPayload(body: string, secret: string, timestamp = now()): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

// ---- Webhook events built from the provider's official fixtures ---------------------------------

const FIXTURES_PATH = fileURLToPath(
  new URL('../../../shared/data/stripe-webhooks/fixtures3.json', import.meta.url),
);

type Json = Record<string, any>;
let cachedFixtures: Json | null | undefined;

/** resources of Stripe's fixtures3.json (../shared/data), or undefined when the file is absent. */
export function stripeFixtures(): Json | undefined {
  if (cachedFixtures === undefined) {
    cachedFixtures = existsSync(FIXTURES_PATH)
      ? (JSON.parse(readFileSync(FIXTURES_PATH, 'utf8')).resources as Json)
      : null;
  }
  return cachedFixtures ?? undefined;
}
export const FIXTURES_MISSING_MESSAGE = `Stripe fixtures not found at ${FIXTURES_PATH}: fixture-based checks skipped`;

const clone = <T>(value: T): T => structuredClone(value);

export interface SubscriptionOptions {
  id: string;
  customer: string;
  status?: string;
  priceId?: string;
  metadata?: Record<string, string>;
  periodEnd?: number;
  cancelAtPeriodEnd?: boolean;
  /** 'items' (current API: period end on items.data[0]) or 'top' (older API versions). */
  periodEndOn?: 'items' | 'top';
}

/** A subscription object: the fixture's (when present) with our values, else a minimal one. */
export function subscriptionObject(o: SubscriptionOptions): Json {
  const base: Json = clone(stripeFixtures()?.subscription) ?? {
    object: 'subscription',
    items: { object: 'list', data: [{ object: 'subscription_item', price: { object: 'price' } }] },
  };
  const periodEnd = o.periodEnd ?? now() + 30 * 86400;
  const item = base.items.data[0];
  item.price.id = o.priceId ?? 'price_unknown';
  item.subscription = o.id;
  delete base.current_period_end;
  delete item.current_period_end;
  if ((o.periodEndOn ?? 'items') === 'items') item.current_period_end = periodEnd;
  else base.current_period_end = periodEnd;
  return {
    ...base,
    id: o.id,
    customer: o.customer,
    status: o.status ?? 'active',
    metadata: o.metadata ?? {},
    cancel_at_period_end: o.cancelAtPeriodEnd ?? false,
  };
}

/** An invoice object naming its subscription the new way (parent) or the old way (subscription). */
export function invoiceObject(o: { subscription: string; customer: string; shape?: 'parent' | 'top' }): Json {
  const base: Json = clone(stripeFixtures()?.invoice) ?? { object: 'invoice', id: id('in') };
  delete base.subscription;
  base.parent = null;
  if ((o.shape ?? 'parent') === 'parent') {
    base.parent = {
      type: 'subscription_details',
      subscription_details: { metadata: {}, subscription: o.subscription },
    };
  } else {
    base.subscription = o.subscription;
  }
  return { ...base, customer: o.customer, status: 'open' };
}

/** The event envelope (the fixture's `event` when present) around `object`. */
export function eventEnvelope(type: string, object: Json, o: { id?: string; created?: number } = {}): Json {
  const base: Json = clone(stripeFixtures()?.event) ?? {
    object: 'event',
    livemode: false,
    pending_webhooks: 1,
  };
  return {
    ...base,
    id: o.id ?? id('evt'),
    type,
    api_version: '2026-10-28.endive',
    created: o.created ?? now(),
    data: { object },
  };
}
