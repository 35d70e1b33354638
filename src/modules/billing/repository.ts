import type { Kysely, Transaction, Updateable } from 'kysely';
import type { BillingTables, SubscriptionRow, SubscriptionsTable } from './tables.ts';

/** The columns a provider event may change. */
export type SubscriptionState = Omit<Updateable<SubscriptionsTable>, 'user_id' | 'updated_at'>;

/** The statements a webhook delivery runs inside its one transaction. */
export class BillingTransaction {
  readonly #trx: Transaction<BillingTables>;
  constructor(trx: Transaction<BillingTables>) {
    this.#trx = trx;
  }

  /** Claims the event id; false when it was already applied (or is being applied right now). */
  async claimEvent(eventId: string, type: string): Promise<boolean> {
    const inserted = await this.#trx
      .insertInto('processed_events')
      .values({ event_id: eventId, type })
      .onConflict((oc) => oc.column('event_id').doNothing())
      .returning('event_id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /** The user's row, created empty when missing, locked until the transaction ends. */
  async lockForUser(userId: string): Promise<SubscriptionRow> {
    await this.#trx
      .insertInto('subscriptions')
      .values({ user_id: userId })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    return this.#trx
      .selectFrom('subscriptions')
      .selectAll()
      .where('user_id', '=', userId)
      .forUpdate()
      .executeTakeFirstOrThrow();
  }

  /** The row holding this provider subscription (else this customer), locked. */
  async lockBySubscription(subscriptionId: string | null, customerId: string | null) {
    const bySubscription = subscriptionId
      ? await this.#trx
          .selectFrom('subscriptions')
          .selectAll()
          .where('stripe_subscription_id', '=', subscriptionId)
          .forUpdate()
          .executeTakeFirst()
      : undefined;
    if (bySubscription || !customerId) return bySubscription;
    return this.#trx
      .selectFrom('subscriptions')
      .selectAll()
      .where('stripe_customer_id', '=', customerId)
      .forUpdate()
      .executeTakeFirst();
  }

  async update(userId: string, state: Partial<SubscriptionState>): Promise<void> {
    await this.#trx
      .updateTable('subscriptions')
      .set({ ...state, updated_at: new Date() })
      .where('user_id', '=', userId)
      .execute();
  }
}

export class BillingRepository {
  readonly #db: Kysely<BillingTables>;
  constructor(db: Kysely<BillingTables>) {
    this.#db = db;
  }

  findByUser(userId: string): Promise<SubscriptionRow | undefined> {
    return this.#db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  async findUserByCustomer(customerId: string): Promise<string | undefined> {
    const row = await this.#db
      .selectFrom('subscriptions')
      .select('user_id')
      .where('stripe_customer_id', '=', customerId)
      .executeTakeFirst();
    return row?.user_id;
  }

  /** Stores the user's provider customer; the first one stored wins and is answered. */
  async saveCustomer(userId: string, customerId: string): Promise<string> {
    await this.#db
      .insertInto('subscriptions')
      .values({ user_id: userId, stripe_customer_id: customerId })
      .onConflict((oc) =>
        oc
          .column('user_id')
          .doUpdateSet({ stripe_customer_id: customerId, updated_at: new Date() })
          .where('subscriptions.stripe_customer_id', 'is', null),
      )
      .execute();
    const row = await this.findByUser(userId);
    return row?.stripe_customer_id ?? customerId;
  }

  /** Runs `work` in one transaction; the event claim and its effect commit or roll back together. */
  inTransaction<T>(work: (tx: BillingTransaction) => Promise<T>): Promise<T> {
    return this.#db.transaction().execute((trx) => work(new BillingTransaction(trx)));
  }
}
