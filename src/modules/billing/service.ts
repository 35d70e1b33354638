import { AppError, conflict, notConfigured } from '../../platform/errors.ts';
import type { Principal } from '../../platform/http/auth.ts';
import { isUuid } from '../../platform/http/ids.ts';
import type { Tier } from '../../platform/security/tokens.ts';
import type {
  PaidTier,
  PaymentEvent,
  PaymentProvider,
  WebhookVerifier,
} from '../../providers/payments/payment-provider.ts';
import type { AccountsService } from '../accounts/service.ts';
import {
  interpret,
  nextAfterPaymentFailure,
  nextSubscriptionState,
  type PaymentFailed,
  type PriceIds,
  type SubscriptionChange,
} from './events.ts';
import { IMMEDIATE, type TransactionScope } from '../../platform/db/unit-of-work.ts';
import type { BillingRepository } from './repository.ts';
import type { SubscriptionStatus } from './tables.ts';

export interface Subscription {
  tier: Tier;
  status: SubscriptionStatus;
  stripeSubscriptionId: string | null;
  validUntil: Date | null;
  cancelAtPeriodEnd: boolean;
}

export interface BillingDeps {
  repo: BillingRepository;
  accounts: AccountsService;
  /** Undefined when STRIPE_SECRET_KEY is not set. */
  provider: PaymentProvider | undefined;
  /** Undefined when PAYMENT_WEBHOOK_SECRET is not set. */
  verifier: WebhookVerifier | undefined;
  prices: PriceIds;
  /** Cross-module transactions: the subscription row and users.tier commit together. */
  uow?: TransactionScope;
  log?: (message: string, details: Record<string, unknown>) => void;
}

export type WebhookOutcome = 'applied' | 'duplicate' | 'ignored';

const PRICE_SETTING: Record<PaidTier, string> = { pro: 'PRICE_ID_PRO', family: 'PRICE_ID_FAMILY' };

/**
 * Paid tiers through the payment provider. The provider's webhook is the only source of tier
 * changes; users.tier (accounts) is kept equal to the tier this module last applied.
 */
export class BillingService {
  readonly #deps: BillingDeps;
  constructor(deps: BillingDeps) {
    this.#deps = deps;
  }

  /** The caller's subscription; a user who never paid has the free, active, empty one. */
  async getSubscription(caller: Principal): Promise<Subscription> {
    const row = await this.#deps.repo.findByUser(caller.id);
    if (!row?.stripe_subscription_id) {
      return {
        tier: caller.tier,
        status: 'active',
        stripeSubscriptionId: null,
        validUntil: null,
        cancelAtPeriodEnd: false,
      };
    }
    return {
      tier: row.tier,
      status: row.status,
      stripeSubscriptionId: row.stripe_subscription_id,
      validUntil: row.valid_until,
      cancelAtPeriodEnd: row.cancel_at_period_end,
    };
  }

  /**
   * Starts a hosted checkout for a paid tier. A user whose subscription is still live changes plan
   * in the portal instead (409), so nobody pays twice.
   */
  async startCheckout(
    caller: Principal,
    input: { tier: PaidTier; successUrl: string; cancelUrl: string },
  ): Promise<string> {
    const provider = this.#provider();
    const priceId = this.#deps.prices[input.tier];
    if (!priceId) throw notConfigured(PRICE_SETTING[input.tier], `Checkout of the ${input.tier} tier`);
    const row = await this.#deps.repo.findByUser(caller.id);
    if (row?.stripe_subscription_id && row.status !== 'cancelled') {
      throw conflict('A subscription is already running; change or cancel it in the customer portal.');
    }
    const customerId =
      row?.stripe_customer_id ??
      (await this.#deps.repo.saveCustomer(
        caller.id,
        await provider.createCustomer({ userId: caller.id, email: caller.email }),
      ));
    return provider.createCheckoutSession({
      customerId,
      priceId,
      userId: caller.id,
      tier: input.tier,
      successUrl: input.successUrl,
      cancelUrl: input.cancelUrl,
    });
  }

  /** The hosted portal; a user who never started a checkout has no billing account there (409). */
  async openPortal(caller: Principal, returnUrl: string): Promise<string> {
    const provider = this.#provider();
    const row = await this.#deps.repo.findByUser(caller.id);
    if (!row?.stripe_customer_id) {
      throw conflict('There is no billing account for this user yet; start a checkout first.');
    }
    return provider.createPortalSession({ customerId: row.stripe_customer_id, returnUrl });
  }

  /**
   * One webhook delivery: verify, then apply the event at most once. The event-id claim and its
   * effect share one transaction, so concurrent re-deliveries apply it exactly once.
   */
  async handleWebhook(rawBody: Buffer, signature: string | undefined): Promise<WebhookOutcome> {
    const verifier = this.#deps.verifier;
    if (!verifier) throw notConfigured('PAYMENT_WEBHOOK_SECRET', 'The payment webhook');
    const event = verifier.verify(rawBody, signature);
    const change = interpret(event, this.#deps.prices);
    if (!change) return 'ignored';
    return change.kind === 'subscription'
      ? this.#applySubscription(event, change)
      : this.#applyPaymentFailure(event, change);
  }

  async #applySubscription(event: PaymentEvent, change: SubscriptionChange): Promise<WebhookOutcome> {
    const userId = await this.#resolveUser(change);
    if (!userId) {
      this.#deps.log?.('payment event for an unknown user ignored', { event: event.id });
      return this.#recordOnly(event);
    }
    // The claim, the subscription row and users.tier (through the accounts service) commit together.
    return (this.#deps.uow ?? IMMEDIATE).run(async () => {
      const applied = await this.#deps.repo.inTransaction(async (tx) => {
        if (!(await tx.claimEvent(event.id, event.type))) return false;
        const row = await tx.lockForUser(userId);
        const next = nextSubscriptionState(row, change, event.created);
        if (next) await tx.update(userId, next);
        return true;
      });
      // Also on a duplicate: a delivery after users.tier was changed by hand heals it.
      await this.#syncTier(userId);
      return applied ? 'applied' : 'duplicate';
    });
  }

  async #applyPaymentFailure(event: PaymentEvent, change: PaymentFailed): Promise<WebhookOutcome> {
    const applied = await this.#deps.repo.inTransaction(async (tx) => {
      if (!(await tx.claimEvent(event.id, event.type))) return false;
      const row = await tx.lockBySubscription(change.subscriptionId, change.customerId);
      if (!row) return true;
      const next = nextAfterPaymentFailure(row, change, event.created);
      if (next) await tx.update(row.user_id, next);
      return true;
    });
    return applied ? 'applied' : 'duplicate';
  }

  async #recordOnly(event: PaymentEvent): Promise<WebhookOutcome> {
    const claimed = await this.#deps.repo.inTransaction((tx) => tx.claimEvent(event.id, event.type));
    return claimed ? 'applied' : 'duplicate';
  }

  /** metadata.user_id when it names an existing user, else the owner of the stored customer id. */
  async #resolveUser(change: SubscriptionChange): Promise<string | undefined> {
    if (change.userIdHint && isUuid(change.userIdHint)) {
      const exists = await this.#deps.accounts.getProfile(change.userIdHint).then(
        () => true,
        (error: unknown) => {
          if (error instanceof AppError && error.code === 'not_found') return false;
          throw error;
        },
      );
      if (exists) return change.userIdHint;
    }
    return change.customerId ? this.#deps.repo.findUserByCustomer(change.customerId) : undefined;
  }

  /**
   * users.tier follows the stored subscription, written through the accounts service (which owns
   * that table) inside the event's transaction, from the row as it is now.
   */
  async #syncTier(userId: string): Promise<void> {
    const row = await this.#deps.repo.findByUser(userId);
    if (row?.stripe_subscription_id) await this.#deps.accounts.setTier(userId, row.tier);
  }

  #provider(): PaymentProvider {
    if (!this.#deps.provider) throw notConfigured('STRIPE_SECRET_KEY', 'Payments');
    return this.#deps.provider;
  }
}
