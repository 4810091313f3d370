/**
 * One side's record of what has crossed (see membrane.ts): the ids it gave its own values, the
 * values it handed out as handles (the only ones a call from the other side may name), and what
 * it made for the other side's values (proxies, promises, errors…), so each crosses back as itself.
 */
export class HandleTable {
  private nextId = 1;
  private readonly byId = new Map<number, unknown>();
  private readonly idOf = new Map<unknown, number>();
  private readonly served = new Set<number>();
  private readonly made = new Map<number, object>();
  private readonly remoteIds = new WeakMap<object, number>();

  /** This side's id for `value`, given the first time it crosses. */
  localId(value: unknown): number {
    let id = this.idOf.get(value);
    if (id === undefined) {
      id = this.nextId++;
      this.idOf.set(value, id);
      this.byId.set(id, value);
    }
    return id;
  }

  /** Whether `value` of this side has crossed before. */
  crossed(value: unknown): boolean {
    return this.idOf.has(value);
  }

  /** `value`'s id, and a call from the other side may now name it. */
  handOut(value: object): number {
    const id = this.localId(value);
    this.served.add(id);
    return id;
  }

  /** The value of this side's id `id` (one the other side sent back as its own). */
  local(id: number): unknown {
    return this.byId.get(id);
  }

  /** The value a call names, if it was handed out; undefined otherwise. */
  handedOut(id: number): unknown {
    return this.served.has(id) ? this.byId.get(id) : undefined;
  }

  /** The other side's id of `value`, when this side made it for one of the other side's values. */
  remoteId(value: object): number | undefined {
    return this.remoteIds.get(value);
  }

  /** What this side made for the other side's value `id`, made by `make` the first time. */
  remember<T extends object>(id: number, make: () => T): T {
    const known = this.made.get(id);
    if (known) return known as T;
    const made = make();
    this.made.set(id, made);
    this.remoteIds.set(made, id);
    return made;
  }
}
