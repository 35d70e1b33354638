import { z } from 'zod';

/** RFC 9457 problem document (contract §2), the body of every error answer. */
export const ProblemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string(),
    errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: 'Problem' });

export type Problem = z.infer<typeof ProblemSchema> & Record<string, unknown>;

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export const problemTypeUri = (code: string) => `https://docs.mise.app/problems/${code.replaceAll('_', '-')}`;
