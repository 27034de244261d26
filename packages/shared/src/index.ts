export * from './api.js';
export * from './constants.js';
export * from './convert.js';
export * from './errors.js';
export * from './onboarding.js';
export * from './validation/auth.js';
export * from './validation/text.js';
export * from './validation/voice.js';
