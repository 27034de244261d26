// JSON Lines: one JSON object a line, its text in `text`, `content` or `body`, or a chat in
// `messages`. From a chat the assistant's turns are taken, since in a fine-tuning file those are
// the writing the model is taught; a chat with no assistant turn gives its user turns (an export
// of the person's own messages). System and tool turns are never the person's writing. Blank
// lines are skipped; records are separated by a blank line.

export class JsonlLineError extends Error {}

const TEXT_FIELDS = ['text', 'content', 'body'] as const;

export function jsonlToText(source: string): string {
  const records: string[] = [];
  source.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new JsonlLineError(`line ${i + 1} is not valid JSON`);
    }
    const text = recordText(value);
    if (text === null) {
      throw new JsonlLineError(`line ${i + 1} has no "text", "content", "body" or "messages"`);
    }
    if (text.trim()) records.push(text.trim());
  });
  return records.join('\n\n');
}

function recordText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (!isObject(value)) return null;
  for (const field of TEXT_FIELDS) {
    const text = contentText(value[field]);
    if (text !== null) return text;
  }
  if (!Array.isArray(value.messages)) return null;
  const messages = value.messages.filter(isObject);
  const turns = (role: string) =>
    messages
      .filter((m) => m.role === role)
      .map((m) => contentText(m.content))
      .filter((t): t is string => t !== null && t.trim() !== '');
  const assistant = turns('assistant');
  return (assistant.length ? assistant : turns('user')).join('\n\n');
}

// A message's content is a string, or (OpenAI's multimodal form) a list of parts with text.
function contentText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const parts = content
    .map((p) => (typeof p === 'string' ? p : isObject(p) && typeof p.text === 'string' ? p.text : null))
    .filter((t): t is string => t !== null);
  return parts.length ? parts.join('') : null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
