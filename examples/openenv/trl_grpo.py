"""One GRPO run with TRL on the gateway's tasks, through the company_gateway OpenEnv server.

    python trl_grpo.py --env-url http://127.0.0.1:8010 --tasks-file tasks.jsonl --model Qwen/Qwen3-0.6B
    python trl_grpo.py --env-url ... --tasks-file ... --tiny-model      # CPU dry run: a random tiny model, no download

The dataset is the listing (``company-gateway tasks --json``): the prompt is each task's instruction and ``task_id``
goes to the environment's ``reset``. The tools are the gateway's tools for those tasks (listed once through the
OpenEnv server). Rewards: ``CompanyGatewayEnv`` is ``/verify``'s reward (the training signal; masked episodes are
left out), ``checks_passed`` the share of the gateway's checks that held (weight 0, for the logs). The trainer's log
history is written to ``OUTPUT_DIR/log_history.json``.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from company_gateway_openenv.trl_env import checks_passed, environment_class
from datasets import Dataset
from openenv.core.mcp_client import MCPToolClient
from trl import GRPOConfig, GRPOTrainer


def gateway_tools(env_url: str, task_ids: list[str]) -> list[dict[str, Any]]:
    """The union of the tools the tasks' sessions offer, in first-seen order (one episode opened and ended per task)."""
    from openenv.core.env_server.mcp_types import CallToolAction

    tools: dict[str, dict[str, Any]] = {}
    with MCPToolClient(base_url=env_url).sync() as client:
        for task_id in task_ids:
            client.reset(task_id=task_id)
            for tool in client.list_tools(use_cache=False):
                tools.setdefault(tool.name, {"name": tool.name, "description": tool.description,
                                             "inputSchema": tool.input_schema})  # fmt: skip
            client.step(CallToolAction(tool_name="end_episode", arguments={"response": ""}))
    return list(tools.values())


def tiny_model(folder: Path, texts: list[str]) -> str:
    """A random 2-layer Qwen2 model and a byte-level BPE tokenizer trained on ``texts``, saved to ``folder``."""
    from tokenizers import ByteLevelBPETokenizer
    from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM
    from trl.chat_template_utils import qwen3_chat_template

    special = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<tool_call>", "</tool_call>", "<tool_response>",
               "</tool_response>", "<think>", "</think>"]  # fmt: skip
    bpe = ByteLevelBPETokenizer()
    bpe.train_from_iterator(texts, vocab_size=700, min_frequency=1, special_tokens=special)
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=bpe._tokenizer, eos_token="<|im_end|>",
                                        pad_token="<|endoftext|>", chat_template=qwen3_chat_template)  # fmt: skip
    config = Qwen2Config(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=4096,
                         eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id,
                         tie_word_embeddings=True)  # fmt: skip
    Qwen2ForCausalLM(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return str(folder)


def main() -> None:
    """Parse the options, build the dataset and the environment class, train, and save the log history."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env-url", required=True, help="the company_gateway OpenEnv server's base URL")
    parser.add_argument("--tasks-file", required=True, help="`company-gateway tasks --json` output (JSONL)")
    parser.add_argument("--split", default=None, help="only this split's tasks")
    parser.add_argument("--model", default=None, help="a model id or folder (TRL loads it)")
    parser.add_argument("--tiny-model", action="store_true", help="build a random tiny model locally (CPU dry run)")
    parser.add_argument("--output-dir", default="grpo-company-gateway", help="where the trainer writes")
    parser.add_argument("--max-steps", type=int, default=1, help="optimizer steps (default 1)")
    parser.add_argument("--num-generations", type=int, default=2, help="rollouts per prompt (default 2)")
    parser.add_argument("--max-completion-length", type=int, default=64, help="tokens per episode (default 64)")
    args = parser.parse_args()
    rows = [json.loads(line) for line in Path(args.tasks_file).read_text().splitlines() if line.strip()]
    rows = [r for r in rows if args.split is None or r.get("split", "train") == args.split]
    out = Path(args.output_dir)
    out.mkdir(parents=True, exist_ok=True)
    tools = gateway_tools(args.env_url, [r["task_id"] for r in rows])
    if args.tiny_model:
        texts = [r["instruction"] for r in rows] + [json.dumps(t) for t in tools]
        model = tiny_model(out / "tiny-model", texts)
    elif args.model:
        model = args.model
    else:
        parser.error("--model or --tiny-model is required")
    dataset = Dataset.from_list([{"prompt": [{"role": "user", "content": r["instruction"]}], "task_id": r["task_id"]}
                                 for r in rows])  # fmt: skip
    batch = args.num_generations * max(1, min(len(rows), 2))
    config = GRPOConfig(output_dir=str(out), max_steps=args.max_steps, per_device_train_batch_size=batch,
                        num_generations=args.num_generations, max_completion_length=args.max_completion_length,
                        logging_steps=1, report_to="none", use_cpu=args.tiny_model, bf16=False,
                        reward_weights=[0.0], save_strategy="no", seed=0)  # fmt: skip
    trainer = GRPOTrainer(model=model, args=config, train_dataset=dataset, reward_funcs=[checks_passed],
                          environment_factory=environment_class(args.env_url, tools))  # fmt: skip
    trainer.train()
    (out / "log_history.json").write_text(json.dumps(trainer.state.log_history, indent=1))
    for env in [e for pool in trainer._environment_pool.values() for e in pool]:
        env.client.close()


if __name__ == "__main__":
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    main()
