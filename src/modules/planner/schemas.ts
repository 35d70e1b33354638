import { z } from 'zod';
import { IsoDate } from '../pantry/dates.ts';

export const GeneratePlanBody = z.object({
  week_start: IsoDate,
  preferences: z
    .object({
      max_prep_time: z.number().int().min(1).max(1440).nullish(),
      cuisines: z.array(z.string().trim().min(1).max(50)).max(30).nullish(),
      avoid_repeated: z.boolean().default(false),
    })
    .default({ avoid_repeated: false }),
  /** Overwrite the week's existing plan instead of answering 409. */
  replace: z.boolean().default(false),
});
