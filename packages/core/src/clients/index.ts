export {};
export * from './pass-through-clients.js';
