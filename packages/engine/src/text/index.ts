export * from './clean.js';
export * from './errors.js';
export * from './extract.js';
export * from './formats.js';
export * from './passages.js';
