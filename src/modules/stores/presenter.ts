import type { Optimisation, ItemPrices } from './pricing.ts';
import type { StoreListRow } from './repository.ts';
import type { Candidate, Job, Promotion, Store, StoreListItem } from './schemas.ts';
import type { PromotionJobRow, PromotionRow, StoreRow } from './tables.ts';

export function presentStore(store: StoreRow): Store {
  return { id: store.id, name: store.name, logo_url: store.logo_url };
}

export function presentStoreListItem(store: StoreListRow): StoreListItem {
  return {
    ...presentStore(store),
    last_updated: new Date(store.last_updated).toISOString(),
    promotion_count: store.promotion_count,
  };
}

export function presentJob(job: PromotionJobRow): Job {
  return {
    id: job.id,
    status: job.status,
    pages_processed: job.pages_processed,
    candidates_extracted: job.candidates_extracted,
    created_at: job.created_at.toISOString(),
    completed_at: job.completed_at ? job.completed_at.toISOString() : null,
    error: job.error,
  };
}

export function presentCandidate(row: PromotionRow): Candidate {
  return {
    id: row.id,
    job_id: row.job_id,
    product: row.product,
    brand: row.brand,
    original_price: row.original_price,
    discounted_price: row.discounted_price,
    unit: row.unit,
    valid_until: row.valid_until,
    page: row.page,
    confidence: Math.round(row.confidence * 100) / 100,
    box: row.box
      ? {
          x: round1(row.box.x),
          y: round1(row.box.y),
          width: round1(row.box.width),
          height: round1(row.box.height),
        }
      : null,
    status: row.status,
  };
}

export function presentPromotion(row: PromotionRow): Promotion {
  return {
    id: row.id,
    product: row.product,
    brand: row.brand,
    original_price: row.original_price,
    discounted_price: row.discounted_price,
    unit: row.unit,
    valid_until: row.valid_until,
  };
}

export function presentPrices(items: ItemPrices[]) {
  return {
    items: items.map((item) => ({
      ingredient_name: item.ingredientName,
      prices: item.prices.map((p) => ({
        store_name: p.storeName,
        price: p.price,
        unit: p.unit,
        discounted_price: p.discountedPrice,
        valid_until: p.validUntil,
      })),
    })),
  };
}

export function presentOptimisation(result: Optimisation) {
  return {
    single_store_best: {
      store_name: result.singleStoreBest.storeName ?? '',
      total_price: result.singleStoreBest.totalPrice,
      coverage_percent: result.singleStoreBest.coveragePercent,
    },
    multi_store_split: result.multiStoreSplit.map((s) => ({
      store_name: s.storeName,
      items: s.items,
      subtotal: s.subtotal,
    })),
    multi_store_total: result.multiStoreTotal,
    savings: result.savings,
    items: result.items.map((i) => ({
      ingredient_name: i.ingredientName,
      store_name: i.storeName,
      cost: i.cost,
      reason: i.reason,
      single_store: i.singleStore,
    })),
    unpriced: result.unpriced,
  };
}

const round1 = (n: number) => Math.round(n * 10) / 10;
