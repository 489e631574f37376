import { createRequire } from 'node:module';

interface IteratorPrototype {
  return?: () => Promise<{ done: true; value: undefined }>;
  close(): Promise<void>;
}

interface AbstractLevelModule {
  AbstractIterator: { prototype: IteratorPrototype };
  AbstractKeyIterator: { prototype: IteratorPrototype };
  AbstractValueIterator: { prototype: IteratorPrototype };
}

/**
 * dynalite 4 reads LevelDB through streams that close their iterator by calling its `return()`,
 * which abstract-level's iterators do not have, so every Query and Scan left a LevelDB iterator
 * open until the engine stopped. An open iterator pins the files it reads: compaction's output
 * piled up beside them (174 MB on disk for 29 MB of data after loading the demo shape; 28 GB after
 * 450,000 items of the 5k one) and memory grew with every read. Giving the iterators a `return()`
 * that closes them lets the stream's end and its early stop at a Limit release them.
 */
export function closeEngineIteratorsWhenStreamsEnd(): void {
  for (const iterator of engineIteratorClasses()) {
    if (iterator.prototype.return) continue;
    Object.defineProperty(iterator.prototype, 'return', {
      configurable: true,
      writable: true,
      value: async function closeIterator(this: IteratorPrototype) {
        await this.close();
        return { done: true as const, value: undefined };
      },
    });
  }
}

/** The iterator classes of the abstract-level that dynalite's LevelDB store is built on. */
function engineIteratorClasses() {
  const require = createRequire(import.meta.url);
  const from = (id: string, parent: string) => require.resolve(id, { paths: [parent] });
  const level = from('level', require.resolve('dynalite'));
  const abstractLevel = require(from('abstract-level', from('classic-level', level))) as AbstractLevelModule;
  return [abstractLevel.AbstractIterator, abstractLevel.AbstractKeyIterator, abstractLevel.AbstractValueIterator];
}
