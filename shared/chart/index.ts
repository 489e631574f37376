export * from './constants.js';
export * from './fields.js';
export * from './sections.js';
export * from './ordering.js';
export * from './code-sets.js';
