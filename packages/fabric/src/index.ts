export * from './types.ts';
export * from './guid.ts';
export * from './rates.ts';
export * from './api.ts';
