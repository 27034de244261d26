// The tokenizer section of a GGUF model: a GPT-2 style byte-level BPE that llama.cpp loads as
// tokenizer model "gpt2" with pre-tokenizer "gpt-2", plus a ChatML chat template.
import { type GgufKv, GgufValueType } from '../gguf/types.js';
import { kv } from '../gguf/writer.js';
import type { BpeVocabulary } from './bpe-trainer.js';

export const END_OF_TEXT = '<|endoftext|>';
export const IM_START = '<|im_start|>';
export const IM_END = '<|im_end|>';
export const HOUSE_SPECIAL_TOKENS = [END_OF_TEXT, IM_START, IM_END];

// llama.cpp token types
const NORMAL = 1;
const CONTROL = 3;

export const CHATML_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

export function tokenizerKv(vocab: BpeVocabulary): GgufKv[] {
  const special = new Set(vocab.specialTokens);
  const eot = vocab.tokens.indexOf(END_OF_TEXT);
  const imEnd = vocab.tokens.indexOf(IM_END);
  return [
    kv.str('tokenizer.ggml.model', 'gpt2'),
    kv.str('tokenizer.ggml.pre', 'gpt-2'),
    kv.strings('tokenizer.ggml.tokens', vocab.tokens),
    kv.i32s(
      'tokenizer.ggml.token_type',
      vocab.tokens.map((t) => (special.has(t) ? CONTROL : NORMAL)),
    ),
    kv.strings('tokenizer.ggml.merges', vocab.merges),
    kv.u32('tokenizer.ggml.bos_token_id', eot),
    kv.u32('tokenizer.ggml.eos_token_id', imEnd >= 0 ? imEnd : eot),
    kv.u32('tokenizer.ggml.padding_token_id', eot),
    { key: 'tokenizer.ggml.add_bos_token', type: GgufValueType.BOOL, value: false },
    kv.str('tokenizer.chat_template', CHATML_TEMPLATE),
  ];
}
