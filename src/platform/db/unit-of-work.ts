import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type Transaction } from 'kysely';
import type { AnyDb } from './database.ts';

interface OpenTransaction {
  trx: Transaction<unknown>;
  /** Set once the transaction has committed or rolled back: the handle falls back to the root. */
  finished: boolean;
  afterCommit: (() => unknown)[];
}

/**
 * One transaction across modules without a module touching another's tables.
 *
 * A service that writes through several modules (cooking: pantry, history, preferences) wraps the
 * steps in `uow.run(...)`. The open transaction travels in an AsyncLocalStorage; every repository
 * holds `uow.db`, a handle that sends each query to the open transaction of the calling async
 * context, or to the root database when there is none. Repositories therefore need no `tx`
 * parameter, and a service called inside another's unit of work joins it.
 *
 * - `run` inside an open unit joins it (no savepoint): the outermost `run` commits or rolls back.
 * - `uow.db.transaction().execute(fn)` (a repository's own transaction) joins the open unit the same
 *   way, and when none is open starts one that nested calls join too. On PGlite (one connection,
 *   serialised by kysely) a query that bypassed the open transaction would wait for it forever;
 *   routing every query of the context through it is what keeps nested use from deadlocking.
 * - `afterCommit(fn)` runs fn once the outermost unit has committed (at once when none is open):
 *   for work that must read committed data through another connection (the search index feed).
 */
export class UnitOfWork implements TransactionScope {
  readonly #root: AnyDb;
  readonly #storage = new AsyncLocalStorage<OpenTransaction>();
  /** The context-aware handle repositories are built with. */
  readonly db: AnyDb;

  constructor(root: AnyDb) {
    this.#root = root;
    this.db = this.#handle();
  }

  /** True when the caller runs inside an open unit of work. */
  get active(): boolean {
    const open = this.#storage.getStore();
    return open !== undefined && !open.finished;
  }

  /**
   * Runs `work` in one transaction (joining the caller's when one is open). `statementTimeoutMs`
   * (0 = none) overrides the connection's statement timeout for this transaction only (SET LOCAL),
   * for long jobs; it is ignored when joining.
   */
  async run<T>(work: () => Promise<T>, options: { statementTimeoutMs?: number } = {}): Promise<T> {
    if (this.active) return work();
    const hooks: (() => unknown)[] = [];
    const result = await this.#root.transaction().execute(async (trx) => {
      const open: OpenTransaction = { trx, finished: false, afterCommit: hooks };
      try {
        if (options.statementTimeoutMs !== undefined) {
          await sql`select set_config('statement_timeout', ${String(options.statementTimeoutMs)}, true)`.execute(
            trx,
          );
        }
        return await this.#storage.run(open, work);
      } finally {
        open.finished = true;
      }
    });
    // Outside the finished transaction's context: the hooks use the root database.
    await this.#storage.exit(async () => {
      for (const hook of hooks) await hook();
    });
    return result;
  }

  /** Runs fn after the open unit commits (skipped if it rolls back); at once when none is open. */
  async afterCommit(fn: () => unknown): Promise<void> {
    const open = this.#storage.getStore();
    if (open && !open.finished) {
      open.afterCommit.push(fn);
      return;
    }
    await this.#storage.exit(fn);
  }

  #current(): AnyDb {
    const open = this.#storage.getStore();
    return open && !open.finished ? (open.trx as unknown as AnyDb) : this.#root;
  }

  #handle(): AnyDb {
    const transaction = () => ({
      execute: <T>(fn: (trx: Transaction<unknown>) => Promise<T>): Promise<T> =>
        this.run(() => fn(this.#storage.getStore()!.trx)),
    });
    return new Proxy(this.#root, {
      get: (_target, property) => {
        if (property === 'transaction') return transaction;
        const target = this.#current();
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  }
}

/** The `db` and `uow` members of the composition root's dependencies, over one root database. */
export function transactional(root: AnyDb): { db: AnyDb; uow: UnitOfWork } {
  const uow = new UnitOfWork(root);
  return { db: uow.db, uow };
}

/** What services see of a unit of work: run steps as one transaction, defer work past commit. */
export interface TransactionScope {
  run<T>(work: () => Promise<T>, options?: { statementTimeoutMs?: number }): Promise<T>;
  afterCommit(fn: () => unknown): Promise<void>;
}

/** No transaction: steps run as they come (services built without a database, unit tests). */
export const IMMEDIATE: TransactionScope = {
  run: (work) => work(),
  afterCommit: async (fn) => {
    await fn();
  },
};
