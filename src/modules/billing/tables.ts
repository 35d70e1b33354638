import type { ColumnType, Selectable } from 'kysely';
import type { Tier } from '../../platform/security/tokens.ts';

export type SubscriptionStatus = 'active' | 'cancelled' | 'past_due' | 'trialing';

/** One row per user who ever started a checkout; the provider's state as last applied. */
export interface SubscriptionsTable {
  user_id: string;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  tier: ColumnType<Tier, Tier | undefined, Tier>;
  status: ColumnType<SubscriptionStatus, SubscriptionStatus | undefined, SubscriptionStatus>;
  valid_until: Date | null;
  cancel_at_period_end: ColumnType<boolean, boolean | undefined, boolean>;
  /** `created` (Unix seconds) of the last provider event applied: older deliveries change nothing. */
  last_event_created: number | null;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** Provider event ids already applied (idempotency of re-deliveries). */
export interface ProcessedEventsTable {
  event_id: string;
  type: string;
  processed_at: ColumnType<Date, Date | undefined, never>;
}

export interface BillingTables {
  subscriptions: SubscriptionsTable;
  processed_events: ProcessedEventsTable;
}

export type SubscriptionRow = Selectable<SubscriptionsTable>;
