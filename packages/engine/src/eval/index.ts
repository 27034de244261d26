export * from './function-words.js';
export * from './stylometry.js';
