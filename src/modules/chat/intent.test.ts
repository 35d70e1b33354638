import { describe, expect, it } from 'vitest';
import {
  asksToChangePlan,
  asksToClearPlan,
  asksToMarkDone,
  asksToRemoveFromPantry,
  daysNamed,
  namesPantryItem,
  parseDayOfWeek,
} from './intent.ts';

describe('asksToClearPlan: only the whole plan', () => {
  it.each([
    'Please clear my meal plan.',
    'wipe the plan for this week',
    'Can you reset my meal-plan? I want to start over',
    'delete all my meals this week',
    'OK. Now clear the plan!',
    'Clear my whole plan, every day',
  ])('accepts %s', (text) => expect(asksToClearPlan(text)).toBe(true));

  it.each([
    'What is on my plan this week?',
    "Don't clear my plan, just swap Tuesday",
    'Remove the rice from my pantry',
    'clear soup recipes please',
    'I do not want to delete the plan',
    'remove Friday lunch from my plan',
    'Delete Tuesday dinner from the plan',
    'should I clear my plan?',
    '',
  ])('refuses %s', (text) => expect(asksToClearPlan(text)).toBe(false));
});

describe('asksToRemoveFromPantry', () => {
  it.each([
    'remove the milk from my pantry',
    'Can you delete the eggs from the fridge?',
    'I ran out of rice',
    'We used up the butter.',
    'I threw out the spinach',
  ])('accepts %s', (text) => expect(asksToRemoveFromPantry(text)).toBe(true));

  it.each([
    "what's in my pantry that I should remove?",
    'Which items in my fridge should I throw out?',
    'How do I remove the skin from the chicken?',
    "don't remove anything from my pantry",
    'show me my pantry',
    'Remove the seeds from the pepper first, then what?',
  ])('refuses %s', (text) => expect(asksToRemoveFromPantry(text)).toBe(false));

  it('lets a removal touch only the items the user named', () => {
    expect(namesPantryItem('remove the milk from my pantry', 'Whole milk')).toBe(true);
    expect(namesPantryItem('remove the milk from my pantry', 'Eggs')).toBe(false);
    expect(namesPantryItem('I ran out of tomatoes', 'Tomato')).toBe(true);
    expect(namesPantryItem('throw out everything expired in the fridge', 'Yogurt')).toBe(true);
  });
});

describe('asksToChangePlan', () => {
  it.each([
    'add the second one to Thursday',
    'Replace Friday lunch with the lentil soup',
    'put lasagna in my plan for tomorrow',
    'Could you swap Tuesday dinner for something vegan?',
    'Plan my week please',
  ])('accepts %s', (text) => expect(asksToChangePlan(text)).toBe(true));

  it.each([
    'show Friday',
    "what's for Friday lunch?",
    'Is Tuesday dinner vegan?',
    "don't change my plan",
    'which recipe should I add to Thursday?',
  ])('refuses %s', (text) => expect(asksToChangePlan(text)).toBe(false));
});

describe('asksToMarkDone', () => {
  it.each([
    'mark Tuesday dinner as done',
    'I cooked tonight’s dinner',
    "I've just made the lunch",
    'Please log Monday breakfast as completed',
  ])('accepts %s', (text) => expect(asksToMarkDone(text)).toBe(true));

  it.each([
    'did I complete Tuesday dinner?',
    'Have I cooked anything this week?',
    'I will cook Tuesday dinner',
    'what did I make on Monday?',
    "don't mark it as done",
  ])('refuses %s', (text) => expect(asksToMarkDone(text)).toBe(false));
});

describe('daysNamed', () => {
  it('reads day names, today and tomorrow, and the whole week', () => {
    expect([...(daysNamed('replace Friday and sat lunch', 0) as Set<number>)].sort()).toEqual([4, 5]);
    expect([...(daysNamed('I cooked tonight', 2) as Set<number>)]).toEqual([2]);
    expect([...(daysNamed('for tomorrow', 6) as Set<number>)]).toEqual([0]);
    expect(daysNamed('plan my week', 0)).toBe('any');
    expect((daysNamed('add lasagna', 0) as Set<number>).size).toBe(0);
  });
});

describe('parseDayOfWeek', () => {
  it('reads numbers and (abbreviated) names, 0 = Monday', () => {
    expect([0, '6', 'thursday', 'Thu', 'SUNDAY', 'mon'].map(parseDayOfWeek)).toEqual([0, 6, 3, 3, 6, 0]);
  });
  it('refuses anything else', () => {
    expect([7, -1, 1.5, 'someday', 'th', null, '8'].map(parseDayOfWeek)).toEqual(Array(7).fill(undefined));
  });
});
