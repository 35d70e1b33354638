/** Prompts for food photography from what the main service forwards. */
const clean = (v: unknown, max: number): string =>
  typeof v === 'string' ? v.replace(/\s+/g, ' ').trim().slice(0, max) : '';

function styled(subject: string, style: string): string {
  const look = style || 'natural light, appetizing, high detail';
  return `${subject} Food photography, ${look}. No text, no watermark.`;
}

export function heroPrompt(body: Record<string, unknown>): string | undefined {
  const title = clean(body.title, 300);
  const description = clean(body.description, 1000);
  if (!title && !description) return undefined;
  return styled(
    `The finished dish "${title || description}"${title && description ? `: ${description}` : ''}.`,
    clean(body.style, 200),
  );
}

export function stepPrompt(body: Record<string, unknown>, stepNumber: number): string | undefined {
  const description = clean(body.description, 1000);
  if (!description) return undefined;
  return styled(`Cooking step ${stepNumber}: ${description}.`, clean(body.style, 200));
}

/** One prompt per step text (`steps`, sent by the main service with the recipe's steps). */
export function batchPrompts(body: Record<string, unknown>): string[] {
  const steps = Array.isArray(body.steps) ? body.steps : [];
  const title = clean(body.title, 300);
  const style = clean(body.style, 200);
  return steps
    .map((s) => clean(s, 1000))
    .filter(Boolean)
    .slice(0, 50)
    .map((s, i) => styled(`Cooking step ${i + 1}${title ? ` of "${title}"` : ''}: ${s}.`, style));
}
