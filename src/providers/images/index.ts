import type { Config } from '../../platform/config.ts';
import { HttpImageJobsGateway, type ImageJobsGateway } from './image-jobs-gateway.ts';

/** The configured image microservice, or undefined (image routes answer 503) without IMAGE_GEN_URL. */
export function createImageJobsGateway(settings: Config['imageGen']): ImageJobsGateway | undefined {
  if (!settings.url) return undefined;
  return new HttpImageJobsGateway({
    baseUrl: settings.url,
    token: settings.token,
    timeoutMs: settings.timeoutMs,
  });
}
