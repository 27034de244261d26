export * from './api.js';
export * from './catalog.js';
export * from './grants.js';
export * from './pack-matching.js';
export * from './plan-change.js';
export * from './plan-labels.js';
export * from './prices.js';
export * from './schemas.js';
