import type { Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { coldStartFiles, handlerOutput } from './lambda-bundles.js';

const output = (bytes: number, imports: Metafile['outputs'][string]['imports'], entryPoint?: string): Metafile['outputs'][string] => ({
  bytes,
  imports,
  exports: [],
  inputs: {},
  ...(entryPoint ? { entryPoint } : {}),
});

describe('a group bundle’s cold start', () => {
  // esbuild lists the chunk of a dynamic import() as an entry point too, and may list it first.
  const metafile: Metafile = {
    inputs: {},
    outputs: {
      'out/ai/chunks/handlers-LAZY.mjs': output(
        500,
        [{ path: 'out/ai/chunks/chunk-SHARED.mjs', kind: 'import-statement' }],
        'functions/ai/transcriptions/handlers.ts',
      ),
      'out/ai/index.mjs': output(
        100,
        [
          { path: 'out/ai/chunks/chunk-SHARED.mjs', kind: 'import-statement' },
          { path: 'out/ai/chunks/handlers-LAZY.mjs', kind: 'dynamic-import' },
        ],
        'functions/ai/handler.ts',
      ),
      'out/ai/chunks/chunk-SHARED.mjs': output(200, []),
    },
  };

  it('starts from index.mjs and follows static imports only', () => {
    const entry = handlerOutput(metafile);
    expect(entry).toBe('out/ai/index.mjs');
    expect([...coldStartFiles(metafile, entry)].sort()).toEqual(['out/ai/chunks/chunk-SHARED.mjs', 'out/ai/index.mjs']);
  });
});
