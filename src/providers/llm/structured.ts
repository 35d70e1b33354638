import { z } from 'zod';
import { upstreamError } from '../../platform/errors.ts';
import { parseLooseJson } from './json-repair.ts';
import {
  addUsage,
  emptyUsage,
  type LlmImage,
  type LlmMessage,
  type LlmProvider,
  type LlmPurpose,
  type LlmUsage,
} from './types.ts';

export interface ObjectRequest<T extends z.ZodType> {
  purpose: LlmPurpose;
  schema: T;
  system: string;
  prompt: string;
  /** Pictures shown with the prompt (purpose `vision`). */
  images?: LlmImage[];
  /**
   * The JSON Schema shown to the model, when the zod schema is more lenient than what the model
   * should aim for (coercions and transforms have no JSON Schema form).
   */
  jsonSchema?: Record<string, unknown>;
  /** The name servers with structured output give the schema (letters, digits, _ and -). */
  schemaName?: string;
  temperature?: number;
  signal?: AbortSignal;
}

export interface ObjectResult<T> {
  object: T;
  usage: LlmUsage;
}

/**
 * A JSON answer validated against a zod schema. The model sees the JSON Schema; its answer is
 * parsed leniently (fences, prose around the object, trailing commas, single quotes: see
 * json-repair.ts) and validated. An answer that still fails gets one retry that shows the model
 * its own output and the validation errors. A second failure is a 502 upstream_error.
 */
export async function generateObject<T extends z.ZodType>(
  llm: LlmProvider,
  request: ObjectRequest<T>,
): Promise<ObjectResult<z.infer<T>>> {
  const schemaObject = request.jsonSchema ?? z.toJSONSchema(request.schema, { unrepresentable: 'any' });
  const jsonSchema = JSON.stringify(schemaObject);
  const system = `${request.system}\n\nReply with one JSON object only, no prose, matching this JSON Schema:\n${jsonSchema}`;
  const messages: LlmMessage[] = [
    { role: 'user', content: request.prompt, ...(request.images?.length ? { images: request.images } : {}) },
  ];
  let usage = emptyUsage();
  let lastProblem = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    const answer = await llm.chat({
      purpose: request.purpose,
      system,
      messages,
      json: true,
      jsonSchema: { name: request.schemaName ?? 'answer', schema: withoutMeta(schemaObject) },
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
    });
    usage = addUsage(usage, answer.usage);
    const parsed = parseLooseJson(answer.text);
    const checked = parsed === undefined ? undefined : request.schema.safeParse(parsed);
    if (checked?.success) return { object: checked.data as z.infer<T>, usage };
    lastProblem = checked ? describeIssues(checked.error) : 'the answer contained no JSON object';
    messages.push(
      { role: 'assistant', content: answer.text },
      {
        role: 'user',
        content: `That answer is invalid: ${lastProblem}. Reply again with the corrected JSON object only.`,
      },
    );
  }
  throw upstreamError('language model', 'The language model did not return a valid answer.', lastProblem);
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 8)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}

/** Servers take a plain JSON Schema object: the draft marker zod adds is dropped. */
function withoutMeta(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _draft, ...rest } = schema;
  return rest;
}
