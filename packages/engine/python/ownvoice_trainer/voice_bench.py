"""The whole Voice on this machine's device, stage by stage, as the engine runs it where CUDA is
(gpu-bench's last table). The product evaluates through llama.cpp (Convert's own rewrite, on CUDA
where node-llama-cpp finds it); here the trainer's decoder writes the same number of tokens with
the adapter as a stand-in, so that column estimates that stage rather than measures it:

    pairs     the base model paraphrases every passage greedily, all passages as one batch with a
              KV cache (decode.py), each answer's budget 1.1 x its passage + 8 tokens;
    train     the Voice preset with early stopping, the base model's held-out loss measured first
              and the Voice's at each epoch (train.py);
    evaluate  the Voice rewrites the preset's evaluation paragraphs (of 28) and 3 held-out passages
              (decode.py with the adapter), each answer's budget 1.5 x its text + 16 tokens.

The stages run in one serving trainer (`serve`), as the engine runs a Voice's paraphrases and its
training: the model read once, CUDA started once; each stage timed from its request to its last
line, the first including the process's start and the model's loading. (In the product the
evaluation is llama.cpp's, whose model the engine already holds; the stand-in's is held too.)
No token ends an answer here (random weights have no end token worth the name), so every answer
runs to its budget: the longest a real model's answers can take. Token counts follow the engine: a passage of 1,500 characters at most is
about 375 tokens, the paraphrase prompt adds about 55, the rewrite prompt about 10.
"""
import json
import math
import os
import random
import time

# (prompt tokens around the text, text tokens) of what each stage reads.
PARAPHRASE_PROMPT = 55
REWRITE_PROMPT = 10
NEUTRAL = {"count": 28, "tokens": 55}
SAMPLES = 3


def _budget(tokens, factor, extra):
    return math.ceil(tokens * factor) + extra


def _timed(run, command, request, workdir, setup):
    """-> (the stage's events, its seconds from its request to its last line). setup[command] gets
    the seconds before its work began (for the first, Python, PyTorch and the model loading): up
    to the trainer's start event, or the decoder's total less its own decoding time."""
    start = time.perf_counter()
    events = run(command, request, workdir)
    total = events[-1]["at"] - start
    began = next((e["at"] for e in events if e["event"] == "start"), None)
    setup[command] = round(began - start if began else total - events[-1].get("seconds", 0.0), 2)
    return events, total


def whole_voice(run, model, preset, pairs, passage_tokens, workdir, device, vocab, eos=0, paragraphs=NEUTRAL["count"]):
    """One whole Voice from `pairs` passages (a tenth more held out), its evaluation rewriting
    `paragraphs` neutral paragraphs -> seconds per stage, peak MiB."""
    rng = random.Random(pairs)
    ids = lambda n: [rng.randrange(vocab) for _ in range(n)]  # noqa: E731 -- random text of n tokens
    held = max(1, round(pairs / 10))
    passages = [ids(passage_tokens) for _ in range(pairs + held)]
    seconds, peak, setup = {}, 0.0, {}

    # pairs: the generic version of every passage
    prompts = [ids(PARAPHRASE_PROMPT) + p for p in passages]
    events, seconds["pairs"] = _timed(run, "generate", {
        "model": model, "prompts": prompts, "max_new": [_budget(len(p), 1.1, 8) for p in passages],
        "stop_ids": [], "device": device}, workdir, setup)
    setup["pairs"] = setup.pop("generate")
    generics = events[-1]["outputs"]
    peak = max(peak, events[-1].get("peak_mib", 0.0))

    # train: generic -> original, held-out loss of the base first and of each epoch
    files = {}
    for name, part in (("train", range(pairs)), ("eval", range(pairs, pairs + held))):
        files[name] = os.path.join(workdir, f"voice-{pairs}-{name}.jsonl")
        with open(files[name], "w") as f:
            for i in part:
                f.write(json.dumps({"input": ids(REWRITE_PROMPT) + generics[i], "target": passages[i] + [eos]}) + "\n")
    out = os.path.join(workdir, f"voice-{pairs}")
    events, seconds["train"] = _timed(run, "train", {
        "mode": "lora", "model": model, "train": files["train"], "eval": files["eval"], "out_dir": out, **preset,
        "seed": 0, "stop_when_eval_stops_improving": True, "eval_base": True,
        "checkpoint_every": 10**9, "checkpoint_seconds": 10**9, "device": device}, workdir, setup)
    adapter = events[-1]["adapter"]
    peak = max(peak, events[-1].get("peak_mib", 0.0))

    # evaluate: the Voice's rewrites of the neutral paragraphs and of a few held-out generics
    # Longest first, as the engine's evaluation asks for them.
    texts = generics[pairs : pairs + SAMPLES] + [ids(NEUTRAL["tokens"]) for _ in range(paragraphs)]
    events, seconds["evaluate"] = _timed(run, "generate", {
        "model": model, "adapter": adapter, "prompts": [ids(REWRITE_PROMPT) + t for t in texts],
        "max_new": [_budget(len(t), 1.5, 16) for t in texts], "stop_ids": [], "device": device}, workdir, setup)
    setup["evaluate"] = setup.pop("generate")
    peak = max(peak, events[-1].get("peak_mib", 0.0))
    seconds["total"] = sum(seconds.values())
    return {"seconds": seconds, "peak_mib": peak, "setup_seconds": setup}
