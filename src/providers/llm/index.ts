export { createLlmProvider, type LlmSettings } from './provider.ts';
export { generateObject, type ObjectRequest, type ObjectResult } from './structured.ts';
export { parseLooseJson } from './json-repair.ts';
export * from './types.ts';
