import { z } from 'zod';
import { ALLERGIES, COOKING_SKILLS, DIETARY_RESTRICTIONS, HEALTH_GOALS } from './vocabulary.ts';

export const UserSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    name: z.string(),
    household_size: z.number().int(),
    dietary_restrictions: z.array(z.string()),
    allergies: z.array(z.string()),
    health_goals: z.array(z.string()),
    cooking_skill: z.string(),
    tier: z.enum(['free', 'pro', 'family']),
    created_at: z.string(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof UserSchema>;

const email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'must be at most 254 characters')
  .pipe(z.email('must be a valid email address'));
const password = z
  .string()
  .min(8, 'must be at least 8 characters')
  .max(128, 'must be at most 128 characters');
const name = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');

export const RegisterBody = z.object({ email, password, name });
/** Login does not re-validate password rules: any string is checked against the stored hash. */
export const LoginBody = z.object({
  email: z.string().trim().toLowerCase().max(254),
  password: z.string().min(1).max(1024),
});

export const TokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
});

const unique = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .max(20)
    .transform((values) => [...new Set(values)] as z.infer<T>[]);

const profileFields = {
  household_size: z.number().int().min(1).max(20),
  dietary_restrictions: unique(z.enum(DIETARY_RESTRICTIONS)),
  allergies: unique(z.enum(ALLERGIES)),
  health_goals: unique(z.enum(HEALTH_GOALS)),
  cooking_skill: z.enum(COOKING_SKILLS),
};

export const OnboardingBody = z.object({
  household_size: profileFields.household_size,
  cooking_skill: profileFields.cooking_skill,
  dietary_restrictions: profileFields.dietary_restrictions.default([]),
  allergies: profileFields.allergies.default([]),
  health_goals: profileFields.health_goals.default([]),
});

export const UpdateMeBody = z.object({
  name: name.optional(),
  household_size: profileFields.household_size.optional(),
  dietary_restrictions: profileFields.dietary_restrictions.optional(),
  allergies: profileFields.allergies.optional(),
  health_goals: profileFields.health_goals.optional(),
  cooking_skill: profileFields.cooking_skill.optional(),
});
