/** The profile vocabularies of contract §3, shared by onboarding, PUT /api/me and the planners. */
export const COOKING_SKILLS = ['beginner', 'intermediate', 'advanced'] as const;
export const DIETARY_RESTRICTIONS = [
  'vegetarian',
  'vegan',
  'pescatarian',
  'gluten_free',
  'dairy_free',
  'nut_free',
  'halal',
  'kosher',
  'keto',
  'low_carb',
] as const;
export const ALLERGIES = [
  'nuts',
  'peanuts',
  'tree_nuts',
  'shellfish',
  'fish',
  'dairy',
  'eggs',
  'soy',
  'gluten',
  'wheat',
  'sesame',
  'mustard',
  'celery',
] as const;
export const HEALTH_GOALS = [
  'weight_loss',
  'muscle_gain',
  'maintenance',
  'heart_health',
  'more_energy',
] as const;

export type DietaryRestriction = (typeof DIETARY_RESTRICTIONS)[number];
export type Allergy = (typeof ALLERGIES)[number];
export type HealthGoal = (typeof HEALTH_GOALS)[number];
export type CookingSkill = (typeof COOKING_SKILLS)[number];
