import type { UserRow } from './tables.ts';
import type { User } from './schemas.ts';

export function presentUser(user: UserRow): User {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    household_size: user.household_size,
    dietary_restrictions: user.dietary_restrictions,
    allergies: user.allergies,
    health_goals: user.health_goals,
    cooking_skill: user.cooking_skill,
    tier: user.tier,
    created_at: user.created_at.toISOString(),
  };
}
