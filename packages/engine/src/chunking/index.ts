export * from './chunk.js';
