"""A Voice package's PEFT export loaded where people load one: transformers reads the base model
from its GGUF file (dequantized to float32), peft puts the package's adapter on it. Prints, as JSON,
how far the adapter moves the next-token logits of a rewrite prompt from the base model's (so an
adapter that loads but does nothing shows), and the adapted model's greedy continuation. Given the
Voice's merged model too (one GGUF file, base and adapter merged), it loads that in transformers
as well and says how far its logits are from the adapted model's.

    python load_peft.py --peft DIR --base-gguf FILE [--merged-gguf FILE]
"""
import argparse
import json
import os

import torch
from peft import PeftModel
from transformers import AutoModelForCausalLM, AutoTokenizer, DynamicCache

PROMPT = "Rewrite in your own voice: The meeting moved to Thursday, so the report is due a day later."


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--peft", required=True, help="the package's peft/ folder")
    parser.add_argument("--base-gguf", required=True, help="the base model's GGUF file")
    parser.add_argument("--merged-gguf", help="the Voice merged into its base model, as OwnVoice built it")
    args = parser.parse_args()

    # The export names its base model's Hugging Face id (what AutoPeftModelForCausalLM would fetch);
    # this machine reads that model from its GGUF file instead.
    with open(os.path.join(args.peft, "adapter_config.json")) as f:
        config = json.load(f)
    folder, file = os.path.split(os.path.abspath(args.base_gguf))
    tokenizer = AutoTokenizer.from_pretrained(folder, gguf_file=file)
    base = AutoModelForCausalLM.from_pretrained(folder, gguf_file=file, torch_dtype=torch.float32)
    model = PeftModel.from_pretrained(base, args.peft).eval()

    # SmolLM2's chat format, written out (the GGUF's template would need jinja2).
    chat = f"<|im_start|>user\n{PROMPT}<|im_end|>\n<|im_start|>assistant\n"
    ids = tokenizer(chat, return_tensors="pt").input_ids
    with torch.no_grad():
        adapted = model(ids).logits[0, -1]
        with model.disable_adapter():
            plain = model(ids).logits[0, -1]
        # Greedy, step by step: transformers 4.47's generate() imports FSDP, which torch 1.13 cannot
        # on Python 3.11 (the pinned reference set, scripts/reference-python.sh). Each step reads
        # only its new token, the earlier ones from the cache: 24 steps took 11.6 s of one core
        # when each read the whole text again.
        out, step, cache = ids, ids, DynamicCache()
        for _ in range(24):
            result = model(step, past_key_values=cache, use_cache=True)
            cache = result.past_key_values
            step = result.logits[0, -1].argmax().view(1, 1)
            out = torch.cat([out, step], dim=1)
            if step.item() == tokenizer.eos_token_id:
                break
    report = {
        "baseModel": config.get("base_model_name_or_path"),
        "logitShift": float((adapted - plain).abs().max()),
        "largestLogit": float(plain.abs().max()),
        "text": tokenizer.decode(out[0, ids.shape[1] :], skip_special_tokens=True),
    }
    if args.merged_gguf:
        report["mergedDiff"] = merged_difference(args.merged_gguf, ids, adapted)
    print(json.dumps(report))


def merged_difference(merged_gguf: str, ids: torch.Tensor, adapted: torch.Tensor) -> float:
    """The largest gap between the merged model's next-token logits and the adapted model's."""
    folder, file = os.path.split(os.path.abspath(merged_gguf))
    merged = AutoModelForCausalLM.from_pretrained(folder, gguf_file=file, torch_dtype=torch.float32).eval()
    with torch.no_grad():
        return float((merged(ids).logits[0, -1] - adapted).abs().max())


if __name__ == "__main__":
    main()
