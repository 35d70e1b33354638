import { parseImageServiceConfig } from './config.ts';
import { buildImageService } from './app.ts';

/** `npm run image-service`: the reference image microservice in its own process. */
async function main(): Promise<void> {
  const config = parseImageServiceConfig();
  const service = buildImageService(config);
  const shutdown = async () => {
    await service.app.close();
    await service.worker.drained();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
  await service.app.listen({ port: config.port, host: config.host });
  if (!config.publicUrl) {
    const address = service.app.server.address();
    if (typeof address === 'object' && address) service.setPublicUrl(`http://localhost:${address.port}`);
  }
  if (!config.images.baseUrl) service.app.log.warn('IMAGE_API_BASE is not set: starting jobs answers 503');
  if (!config.token) service.app.log.warn('IMAGE_SERVICE_TOKEN is not set: callers are not authenticated');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
