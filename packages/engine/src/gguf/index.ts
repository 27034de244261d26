export * from './errors.js';
export * from './model-spec.js';
export * from './quant.js';
export * from './reader.js';
export * from './types.js';
export * from './writer.js';
