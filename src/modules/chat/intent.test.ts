import { describe, expect, it } from 'vitest';
import { asksToClearPlan, parseDayOfWeek } from './intent.ts';

describe('asksToClearPlan', () => {
  it.each([
    'Please clear my meal plan.',
    'wipe the plan for this week',
    'Can you reset my meal-plan? I want to start over',
    'delete all my meals this week',
    'OK. Now clear the plan!',
  ])('accepts %s', (text) => expect(asksToClearPlan(text)).toBe(true));

  it.each([
    'What is on my plan this week?',
    "Don't clear my plan, just swap Tuesday",
    'Remove the rice from my pantry',
    'clear soup recipes please',
    'I do not want to delete the plan',
    '',
  ])('refuses %s', (text) => expect(asksToClearPlan(text)).toBe(false));
});

describe('parseDayOfWeek', () => {
  it('reads numbers and (abbreviated) names, 0 = Monday', () => {
    expect([0, '6', 'thursday', 'Thu', 'SUNDAY', 'mon'].map(parseDayOfWeek)).toEqual([0, 6, 3, 3, 6, 0]);
  });
  it('refuses anything else', () => {
    expect([7, -1, 1.5, 'someday', 'th', null, '8'].map(parseDayOfWeek)).toEqual(Array(7).fill(undefined));
  });
});
