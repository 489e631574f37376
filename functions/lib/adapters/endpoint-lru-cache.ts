/**
 * Stands in for `mnemonist/lru-cache` inside the Lambda bundles (an esbuild alias in
 * infra/lib/lambda-bundling.ts). Its one user is the DynamoDB client's endpoint-discovery cache
 * (`@aws-sdk/endpoint-cache`), which the client builds even with discovery off; mnemonist brings
 * typed-array pointers and iterator helpers (about 7 KB minified) to every group for it. A Map keeps
 * insertion order, which is all an LRU needs: a read moves the key to the end, a write past
 * capacity drops the first.
 */
export default class LRUCache<K, V> {
  private readonly items = new Map<K, V>();

  constructor(private readonly capacity: number) {
    if (!(capacity > 0)) throw new Error('LRUCache: capacity must be a positive number');
  }

  get size(): number {
    return this.items.size;
  }

  has(key: K): boolean {
    return this.items.has(key);
  }

  /** The value without making it the most recently used, as mnemonist's peek. */
  peek(key: K): V | undefined {
    return this.items.get(key);
  }

  get(key: K): V | undefined {
    if (!this.items.has(key)) return undefined;
    const value = this.items.get(key) as V;
    this.items.delete(key);
    this.items.set(key, value);
    return value;
  }

  set(key: K, value: V): this {
    this.items.delete(key);
    this.items.set(key, value);
    if (this.items.size > this.capacity) this.items.delete(this.items.keys().next().value as K);
    return this;
  }

  clear(): void {
    this.items.clear();
  }
}
