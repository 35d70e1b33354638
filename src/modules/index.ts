import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { LimitKeys } from '../platform/http/rate-limit.ts';
import { DailyAllowances } from '../platform/quotas/daily-allowance.ts';
import { jobCounts } from '../platform/jobs/queue.ts';
import { meteredLlm } from '../platform/observability/metered-llm.ts';
import { Metrics } from '../platform/observability/metrics.ts';
import { LoginThrottle, MemoryFailureStore, RedisFailureStore } from '../platform/security/login-throttle.ts';
import type { Config } from '../platform/config.ts';
import type { AnyDb, DatabaseHandle } from '../platform/db/database.ts';
import type { UnitOfWork } from '../platform/db/unit-of-work.ts';
import type { TokenService } from '../platform/security/tokens.ts';
import { AccountsRepository } from './accounts/repository.ts';
import { accountsRoutes } from './accounts/routes.ts';
import { AccountsService } from './accounts/service.ts';
import { BillingRepository } from './billing/repository.ts';
import { billingRoutes } from './billing/routes.ts';
import { BillingService } from './billing/service.ts';
import { createPaymentProvider, createWebhookVerifier } from '../providers/payments/index.ts';
import { createImageJobsGateway } from '../providers/images/index.ts';
import { ImagesRepository } from './images/repository.ts';
import { imagesRoutes } from './images/routes.ts';
import { ImagesService } from './images/service.ts';
import { devicesRoutes } from './devices/routes.ts';
import { DevicesService } from './devices/service.ts';
import { IngredientsRepository } from './ingredients/repository.ts';
import { ingredientsRoutes } from './ingredients/routes.ts';
import { IngredientsService } from './ingredients/service.ts';
import { PreferencesRepository } from './preferences/repository.ts';
import { preferencesRoutes } from './preferences/routes.ts';
import { PreferencesService } from './preferences/service.ts';
import { fetchPublicPage } from '../platform/net/public-fetch.ts';
import { recipeImportRoutes } from './recipe-import/routes.ts';
import { RecipeImportService } from './recipe-import/service.ts';
import { RecipesRepository } from './recipes/repository.ts';
import { recipesRoutes } from './recipes/routes.ts';
import { RecipesService } from './recipes/service.ts';
import { PantryRepository } from './pantry/repository.ts';
import { pantryRoutes } from './pantry/routes.ts';
import { PantryService } from './pantry/service.ts';
import { ShoppingRepository } from './shopping/repository.ts';
import { shoppingRoutes } from './shopping/routes.ts';
import { ShoppingService } from './shopping/service.ts';
import { MealPlansRepository } from './meal-plans/repository.ts';
import { mealPlanRoutes } from './meal-plans/routes.ts';
import { MealPlansService } from './meal-plans/service.ts';
import { createLlmProvider, type LlmProvider } from '../providers/llm/index.ts';
import { assistantMealPlans } from './chat/meal-plans-adapter.ts';
import { ChatRepository } from './chat/repository.ts';
import { chatRoutes } from './chat/routes.ts';
import { ChatService } from './chat/service.ts';
import { SpendService, spendRoutes } from './chat/spend.ts';
import { LlmUsageService } from './chat/usage.ts';
import { plannerRoutes } from './planner/routes.ts';
import { PlannerService } from './planner/service.ts';
import { aiRecipesRoutes } from './ai-recipes/routes.ts';
import { AiRecipesService } from './ai-recipes/service.ts';
import { createStoresModule, type FlyerWorkers } from './stores/module.ts';
import type { FlyerPagePictures } from './stores/page-pictures.ts';
import type { PricingService } from './stores/pricing.ts';
import { storesRoutes } from './stores/routes.ts';
import type { StoresService } from './stores/service.ts';

const SERVICE_VERSION = '0.1';

/** What every module is built from. */
export interface PlatformDeps {
  config: Config;
  database: DatabaseHandle;
  /** The handle repositories use: queries join the caller's open unit of work (uow.db). */
  db: AnyDb;
  /** Cross-module transactions (see platform/db/unit-of-work.ts). */
  uow: UnitOfWork;
  tokens: TokenService;
  now: () => Date;
  /** Shared counters between instances (REDIS_URL); undefined: this process's memory. */
  redis?: Redis | undefined;
  /** The app's metrics registry; commands without an HTTP listener get a private one. */
  metrics?: Metrics;
}

/**
 * The composition root: every module's services, wired in dependency order. Modules reach each
 * other only through these services.
 */
export interface Services {
  accounts: AccountsService;
  preferences: PreferencesService;
  devices: DevicesService;
  ingredients: IngredientsService;
  recipes: RecipesService;
  recipeImport: RecipeImportService;
  pantry: PantryService;
  mealPlans: MealPlansService;
  shopping: ShoppingService;
  billing: BillingService;
  images: ImagesService;
  /** The language model (503 not_configured per purpose when its settings are missing). */
  llm: LlmProvider;
  llmUsage: LlmUsageService;
  /** Model spend per day, feature and user (admin report). */
  spend: SpendService;
  metrics: Metrics;
  chat: ChatService;
  planner: PlannerService;
  aiRecipes: AiRecipesService;
  stores: StoresService;
  pricing: PricingService;
  pagePictures: FlyerPagePictures;
  /** Starts flyer-processing workers in this process (startBackgroundWork, src/worker.ts, tests). */
  startFlyerWorker: FlyerWorkers;
  /** Stops the stores module's enqueue-only job queue. */
  closeStores: () => Promise<void>;
}

export function createServices(deps: PlatformDeps): Services {
  const accounts = new AccountsService(
    new AccountsRepository(deps.db),
    deps.tokens,
    deps.config.adminEmails,
    deps.now,
    deps.config.refreshGraceSeconds,
    new LoginThrottle(deps.redis ? new RedisFailureStore(deps.redis) : new MemoryFailureStore()),
  );
  const preferences = new PreferencesService(new PreferencesRepository(deps.db));
  const devices = new DevicesService(deps.db);
  const ingredients = new IngredientsService(new IngredientsRepository(deps.db));
  const recipes = new RecipesService({
    repo: new RecipesRepository(deps.db),
    searchSource: new RecipesRepository(deps.database.db),
    searchIndex: { budgetBytes: deps.config.searchIndexBudgetBytes },
    uow: deps.uow,
    ingredients,
    preferences,
    pantry: (): PantryService => pantry,
    now: deps.now,
  });
  const pantry = new PantryService(new PantryRepository(deps.db), ingredients, recipes, deps.now);
  const mealPlans = new MealPlansService(new MealPlansRepository(deps.db), recipes, accounts, deps.now, {
    // Completing a slot cooks its recipe the way POST /api/recipes/:id/cook does.
    cook: async (recipeId, user, servings) => {
      const outcome = await recipes.cook(recipeId, user, servings);
      return { cookedAt: outcome.cookedAt, deducted: outcome.deducted, missing: outcome.missing };
    },
  });
  const shopping = new ShoppingService(
    new ShoppingRepository(deps.db),
    ingredients,
    recipes,
    pantry,
    mealPlans,
  );
  const billing = new BillingService({
    repo: new BillingRepository(deps.db),
    accounts,
    provider: createPaymentProvider(deps.config.stripe),
    verifier: createWebhookVerifier(deps.config.stripe),
    prices: deps.config.stripe.priceIds,
    uow: deps.uow,
  });
  const allowances = new DailyAllowances(deps.db);
  const quotas = deps.config.quotas;
  const images = new ImagesService({
    repo: new ImagesRepository(deps.db),
    recipes,
    gateway: createImageJobsGateway(deps.config.imageGen),
    allowances,
    imageJobsPerDay: (tier) => (tier === 'free' ? quotas.imageJobsFree : quotas.imageJobsPaid),
    now: deps.now,
    uow: deps.uow,
  });
  const llm = createLlmProvider(deps.config.llm);
  const metrics = deps.metrics ?? new Metrics();
  const meter = { metrics, prices: deps.config.modelPrices };
  const chatRepo = new ChatRepository(deps.db);
  const spend = new SpendService(
    chatRepo,
    (userId) => accounts.getProfile(userId).catch(() => undefined),
    deps.now,
  );
  const llmUsage = new LlmUsageService(chatRepo, deps.now, meter, {
    allowances,
    limitFor: async (userId) =>
      (await accounts.getProfile(userId)).tier === 'free' ? quotas.modelCallsFree : quotas.modelCallsPaid,
  });
  const chat = new ChatService(
    chatRepo,
    llm,
    llmUsage,
    {
      profiles: accounts,
      preferences,
      recipes,
      ingredients,
      pantry,
      mealPlans: assistantMealPlans(mealPlans),
    },
    { maxToolRounds: deps.config.llm.maxToolRounds, now: deps.now },
  );
  const planner = new PlannerService({
    profiles: accounts,
    preferences,
    recipes,
    pantry,
    mealPlans,
    llm,
    usage: llmUsage,
  });
  const aiRecipes = new AiRecipesService({
    profiles: accounts,
    preferences,
    pantry,
    ingredients,
    llm,
    usage: llmUsage,
  });
  // Flyer reading is the service's own spend (no user): counted in the metrics only.
  const storesModule = createStoresModule(deps, {
    shopping,
    ingredients,
    llm: meteredLlm(llm, 'flyer', meter),
  });
  const importLimits = deps.config.recipeImport;
  const recipeImport = new RecipeImportService({
    recipes,
    ingredients,
    fetchPage: (url) =>
      fetchPublicPage(url, {
        maxBytes: importLimits.maxBytes,
        timeoutMs: importLimits.timeoutMs,
        maxRedirects: 5,
        userAgent: `mise-recipe-import/${SERVICE_VERSION} (recipe import on a user's request)`,
        accept: ['text/html', 'application/xhtml+xml', 'application/ld+json', 'application/json'],
        allowedNetworks: importLimits.allowedNetworks,
      }),
  });
  return {
    stores: storesModule.stores,
    pricing: storesModule.pricing,
    pagePictures: storesModule.pictures,
    startFlyerWorker: storesModule.startFlyerWorker,
    closeStores: storesModule.close,
    accounts,
    preferences,
    devices,
    ingredients,
    recipes,
    recipeImport,
    pantry,
    mealPlans,
    shopping,
    billing,
    images,
    llm,
    llmUsage,
    spend,
    metrics,
    chat,
    planner,
    aiRecipes,
  };
}

/** Figures read at each scrape: connections, job queues and their outcomes, flyer and image jobs. */
export function registerMetricGauges(services: Services, database: DatabaseHandle): void {
  const { metrics } = services;
  const pool = database.pool;
  if (pool) {
    metrics.gauge('mise_db_pool_connections', 'PostgreSQL pool connections by state', ['state'], async () => [
      { labels: { state: 'total' }, value: pool.totalCount },
      { labels: { state: 'idle' }, value: pool.idleCount },
      { labels: { state: 'waiting' }, value: pool.waitingCount },
    ]);
  }
  metrics.gauge(
    'mise_jobs',
    'Background jobs by queue and state (created and retry: waiting; active; completed, failed)',
    ['queue', 'state'],
    async () =>
      (await jobCounts(database)).map((r) => ({
        labels: { queue: r.queue, state: r.state },
        value: r.count,
      })),
  );
  metrics.gauge(
    'mise_search_index_recipes',
    'Shared recipes held by the in-memory search index, labelled with where searches are answered (loading and database: PostgreSQL)',
    ['mode'],
    async () => {
      const { mode, recipes } = services.recipes.searchIndexState();
      return [{ labels: { mode }, value: recipes }];
    },
  );
  metrics.gauge('mise_flyer_jobs', 'Flyer processing jobs by status', ['status'], async () =>
    (await services.stores.jobCounts()).map((r) => ({
      labels: { status: r.status },
      value: Number(r.count),
    })),
  );
  metrics.gauge('mise_image_jobs', 'Image generation jobs by status', ['status'], async () =>
    (await services.images.jobCounts()).map((r) => ({
      labels: { status: r.status },
      value: Number(r.count),
    })),
  );
}

export async function registerModuleRoutes(
  app: FastifyInstance,
  services: Services,
  config: Config,
  limitKeys: LimitKeys,
): Promise<void> {
  await app.register(accountsRoutes, {
    accounts: services.accounts,
    cookieSecure: config.cookieSecure,
    authRateLimit: { max: config.rateLimit.authMax, timeWindow: config.rateLimit.window },
    limitKeys,
  });
  await app.register(preferencesRoutes, { preferences: services.preferences });
  await app.register(devicesRoutes, { devices: services.devices });
  await app.register(ingredientsRoutes, { ingredients: services.ingredients });
  await app.register(recipeImportRoutes, { recipeImport: services.recipeImport });
  await app.register(recipesRoutes, { recipes: services.recipes });
  await app.register(pantryRoutes, { pantry: services.pantry });
  await app.register(shoppingRoutes, { shopping: services.shopping });
  await app.register(mealPlanRoutes, { mealPlans: services.mealPlans });
  await app.register(chatRoutes, { chat: services.chat });
  await app.register(spendRoutes, { spend: services.spend });
  await app.register(plannerRoutes, { planner: services.planner });
  await app.register(aiRecipesRoutes, { aiRecipes: services.aiRecipes });
  await app.register(storesRoutes, {
    stores: services.stores,
    pricing: services.pricing,
    pictures: services.pagePictures,
    uploadMaxBytes: config.uploadMaxBytes,
    onClose: services.closeStores,
  });
  await app.register(billingRoutes, {
    billing: services.billing,
    webhookRateLimit: { max: config.rateLimit.max * 10, timeWindow: config.rateLimit.window },
  });
  await app.register(imagesRoutes, { images: services.images });
}

/** Reference data loaded at start (idempotent). */
export async function seedReferenceData(services: Services, _deps: PlatformDeps): Promise<void> {
  // Ingredients first: catalog recipes resolve their ingredient names against them.
  await services.ingredients.seedIngredients();
  await services.recipes.seedCatalog();
}

/** Background work (job workers) started with the service and stopped before the database closes. */
export async function startBackgroundWork(
  services: Services,
  deps: PlatformDeps,
): Promise<() => Promise<void>> {
  if (!deps.config.runWorkers) return async () => undefined;
  const flyerWorker = await services.startFlyerWorker();
  return async () => {
    await flyerWorker.stop();
  };
}
