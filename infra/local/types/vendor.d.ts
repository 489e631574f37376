// The local stand-ins ship without type declarations; only what the runtime touches is declared.

declare module 'dynalite' {
  import type { Server } from 'node:http';
  interface DynaliteOptions {
    path?: string;
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
    maxItemSizeKb?: number;
  }
  export default function dynalite(options?: DynaliteOptions): Server;
}

declare module 'dynalite/validations/index.js' {
  export function checkValidations(data: unknown, types: unknown, custom: unknown, store?: unknown): void;
}

declare module 'dynalite/validations/putItem.js' {
  export const types: unknown;
  export const custom: unknown;
}
declare module 'dynalite/validations/updateItem.js' {
  export const types: unknown;
  export const custom: unknown;
}
declare module 'dynalite/validations/deleteItem.js' {
  export const types: unknown;
  export const custom: unknown;
}

declare module 'dynalite/db/index.js' {
  export function checkConditional(data: unknown, existingItem: unknown): Error | null | undefined;
}

declare module 's3rver' {
  import type { AddressInfo } from 'node:net';
  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    resetOnClose?: boolean;
    allowMismatchedSignatures?: boolean;
    vhostBuckets?: boolean;
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  }
  export default class S3rver {
    constructor(options?: S3rverOptions);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}

declare module 'dynalite/validations/index.js' {
  export function checkTypes(data: unknown, types: unknown): unknown;
}
