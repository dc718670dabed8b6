import { AsyncLocalStorage } from "node:async_hooks";
import type { ControlledTransaction, Kysely, Transaction } from "kysely";
import type { Bus } from "../bus/bus";
import type { DB } from "./schema";

/**
 * The request's unit of work: one transaction every query of the request runs in (through the
 * database handle of `createUnitOfWorkDb`), and what waits for its commit (bus messages, job
 * wake-ups). A unit without a transaction only carries `pending` work for the service's own.
 */
interface UnitOfWork {
  trx: ControlledTransaction<DB> | null;
  savepoints: number;
  afterCommit: (() => void)[];
  /** Work the saving transaction of a service with its own transactions runs (`runPendingSaveWork`). */
  beforeServiceCommit: ((trx: Transaction<DB>, saved?: SavedObject) => Promise<void>) | null;
}

/** What a service with its own transactions saved, for the call's audit entry (an upload's file). */
export interface SavedObject {
  id: string;
  name: string | null;
}

const units = new AsyncLocalStorage<UnitOfWork>();

function openTransaction(): ControlledTransaction<DB> | null {
  return units.getStore()?.trx ?? null;
}

/** `transaction()` inside a unit: a savepoint, so a service's own rollback still undoes only its part. */
function nestedTransactionBuilder(unit: UnitOfWork, trx: ControlledTransaction<DB>) {
  const builder = {
    setIsolationLevel: () => builder,
    setAccessMode: () => builder,
    async execute<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
      const name = `uow_${++unit.savepoints}`;
      const point = await trx.savepoint(name).execute();
      try {
        const result = await work(point as unknown as Transaction<DB>);
        await point.releaseSavepoint(name).execute();
        return result;
      } catch (error) {
        await point.rollbackToSavepoint(name).execute();
        throw error;
      }
    },
  };
  return builder;
}

function bound(target: object, prop: PropertyKey): unknown {
  const value = Reflect.get(target, prop, target);
  return typeof value === "function" ? value.bind(target) : value;
}

/**
 * The database handle the app gives every service: outside a unit of work it is `root`; inside one
 * every query runs in the unit's transaction, and `transaction()` opens a savepoint in it.
 */
export function createUnitOfWorkDb(root: Kysely<DB>): Kysely<DB> {
  return new Proxy(root, {
    get(target, prop) {
      const unit = units.getStore();
      const trx = unit?.trx;
      if (unit && trx) {
        if (prop === "transaction") return () => nestedTransactionBuilder(unit, trx);
        return bound(trx, prop);
      }
      return bound(target, prop);
    },
  });
}

/**
 * Runs `work` as one unit of work on `root`: every query of it in one transaction, `beforeCommit`
 * last in it (given what `work` answered), then the commit, then what waited for the commit. A
 * throw rolls everything back and drops what waited.
 */
export async function runInUnitOfWork<T>(
  root: Kysely<DB>,
  work: () => Promise<T>,
  beforeCommit: (trx: Transaction<DB>, result: T) => Promise<void>,
): Promise<T> {
  const trx = await root.startTransaction().execute();
  const unit: UnitOfWork = { trx, savepoints: 0, afterCommit: [], beforeServiceCommit: null };
  return units.run(unit, async () => {
    let result: T;
    try {
      result = await work();
      await beforeCommit(trx, result);
    } catch (error) {
      unit.trx = null;
      unit.afterCommit = [];
      await trx.rollback().execute();
      throw error;
    }
    unit.trx = null;
    await trx.commit().execute();
    for (const callback of unit.afterCommit.splice(0)) callback();
    return result;
  });
}

/**
 * Runs `work`, a call whose service keeps its own transactions (an upload streams its bytes before
 * any), with `beforeCommit` pending: the service runs it in the transaction that saves, by
 * `runPendingSaveWork`; nothing runs it if the service never saves.
 */
export function runBeforeServiceCommit<T>(
  work: () => Promise<T>,
  beforeCommit: (trx: Transaction<DB>, saved?: SavedObject) => Promise<void>,
): Promise<T> {
  return units.run({ trx: null, savepoints: 0, afterCommit: [], beforeServiceCommit: beforeCommit }, work);
}

/**
 * Called by a service that keeps its own transactions, inside the one that saves: runs the call's
 * pending work (its audit entry, naming `saved`) there, once, so the save and the entry commit together.
 */
export async function runPendingSaveWork(trx: Transaction<DB>, saved?: SavedObject): Promise<void> {
  const unit = units.getStore();
  const pending = unit?.beforeServiceCommit;
  if (!unit || !pending) return;
  unit.beforeServiceCommit = null;
  await pending(trx, saved);
}

/** Runs `callback` once the open unit of work commits (never if it rolls back); now when none is open. */
export function afterUnitCommit(callback: () => void): void {
  const unit = units.getStore();
  if (unit?.trx) unit.afterCommit.push(callback);
  else callback();
}

/** A bus whose publishes inside a unit of work go out after its commit, so nobody hears of a rollback. */
export function deferPublishesToCommit(bus: Bus): Bus {
  return {
    publish(topic, message) {
      if (!openTransaction()) return bus.publish(topic, message);
      afterUnitCommit(() => {
        bus.publish(topic, message).catch(() => {
          // As any publish: best-effort, a lost message is re-read by the browser on reconnect.
        });
      });
      return Promise.resolve();
    },
    subscribe: (topic, handler) => bus.subscribe(topic, handler),
    close: () => bus.close(),
  };
}
