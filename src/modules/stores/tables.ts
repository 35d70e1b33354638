import type { OfferBox } from './extraction/layout.ts';
import type { ColumnType, Generated, Selectable } from 'kysely';

export type JobStatus = 'pending' | 'processing' | 'completed' | 'failed';
export type PromotionStatus = 'candidate' | 'live' | 'rejected';

export interface StoresTable {
  id: Generated<string>;
  name: string;
  logo_url: string;
  created_at: ColumnType<Date, never, never>;
  /** Last time a live promotion of the store appeared, changed or went away. */
  promotions_changed_at: Date | null;
  promotions_version: Generated<number>;
}

export interface PromotionJobsTable {
  id: string;
  store_id: string;
  file_key: string;
  status: Generated<JobStatus>;
  pages_processed: Generated<number>;
  candidates_extracted: Generated<number>;
  error: string | null;
  /** Incremented by every claim; progress writes are fenced on it (a superseded run cannot write). */
  attempts: Generated<number>;
  created_at: ColumnType<Date, never, never>;
  started_at: Date | null;
  completed_at: Date | null;
  /** Last sign of life of the running attempt (database clock). */
  heartbeat_at: Date | null;
}

export interface PromotionsTable {
  id: Generated<string>;
  store_id: string;
  job_id: string | null;
  product: string;
  brand: string;
  original_price: number;
  discounted_price: number;
  unit: string;
  valid_until: string;
  page: number;
  /** Reading order on the page. */
  position: Generated<number>;
  confidence: number;
  /** Where on the page it was read: PDF points, top-left origin (null when the reader did not say). */
  box: ColumnType<OfferBox | null, string | null | undefined, string | null>;
  /** Read from a PDF text layer alone: the outlier rule for misreadings leaves it listed. */
  from_text_layer: Generated<boolean>;
  status: Generated<PromotionStatus>;
  created_at: ColumnType<Date, never, never>;
  updated_at: Generated<Date>;
}

/**
 * A live promotion that matches an ingredient, with its match score (pricing.ts has the rule) and
 * a copy of the offer (refreshed whenever the promotion is matched again).
 */
export interface PromotionMatchesTable {
  promotion_id: string;
  ingredient_id: number;
  score: number;
  store_id: string;
  original_price: number;
  discounted_price: number;
  unit: string;
  valid_until: string;
}

/**
 * The terms (name and aliases) an ingredient's matches were resolved with, and its matches as one
 * prebuilt JSON array of offers (StoresRepository.refreshOffers writes it).
 */
export interface PromotionMatchTermsTable {
  ingredient_id: number;
  terms: string[];
  offers: Generated<unknown>;
}

export interface StoresTables {
  stores: StoresTable;
  promotion_jobs: PromotionJobsTable;
  promotions: PromotionsTable;
  promotion_matches: PromotionMatchesTable;
  promotion_match_terms: PromotionMatchTermsTable;
}

export type StoreRow = Selectable<StoresTable>;
export type PromotionJobRow = Selectable<PromotionJobsTable>;
export type PromotionRow = Selectable<PromotionsTable>;
