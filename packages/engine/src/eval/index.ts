export * from './authorship-classifier.js';
export * from './bootstrap.js';
export * from './content-recall.js';
export * from './function-words.js';
export * from './quantiles.js';
export * from './rewrite-measures.js';
export * from './stylometry.js';
