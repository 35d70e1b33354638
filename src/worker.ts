import { enableCompileCache } from 'node:module';

// As in main.ts: compiled modules kept on disk between starts.
enableCompileCache();
await import('./start/worker.ts');
