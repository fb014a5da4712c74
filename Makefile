# `make demo` and `make test` work on a fresh machine: each creates .venv when missing and
# installs the project (editable, with dev tools) under constraints.txt before running.
PYTHON ?= python3.11
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEMO := runs/demo
export PIP_DISABLE_PIP_VERSION_CHECK := 1
# Byte-code is written even where the environment says not to (PYTHONDONTWRITEBYTECODE): the
# demo and the suite start hundreds of symcomp processes, which would each compile what they
# import (torch among it) from source. The install compiles what symcomp and its tests import
# (.ci/warm_bytecode.py: 12 CPU-s), not every installed file (43 of the install's 53 s on 2
# cores), so that a command run later with PYTHONDONTWRITEBYTECODE=1 still finds it.
export PYTHONDONTWRITEBYTECODE :=

.PHONY: demo test quick lint typecheck unit install clean

install: $(STAMP)

EXTRAS := dev,nli,arith,hf,models,ray,llm
# uv installs in seconds what pip installs in minutes (2.4 min on a fresh 2-core machine), but
# reads no pip configuration: it is handed pip's own wheel folders and indexes (where the CPU
# build of torch lies). pip is the fallback wherever uv cannot be installed or fails.
UV_SOURCES = $(foreach links,$(shell $(PYTHON) -m pip config get global.find-links 2>/dev/null),--find-links $(links)) \
	$(foreach index,$(shell $(PYTHON) -m pip config get global.extra-index-url 2>/dev/null),--extra-index-url $(index))

$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	( $(BIN)/python -m pip install --quiet uv && $(BIN)/uv pip install --quiet --python $(BIN)/python \
		--index-strategy unsafe-best-match $(UV_SOURCES) -c constraints.txt -e ".[$(EXTRAS)]" ) \
	|| $(BIN)/python -m pip install --quiet -c constraints.txt -e ".[$(EXTRAS)]"
	$(BIN)/python .ci/warm_bytecode.py
	touch $(STAMP)

# the worked SCAN export's first training item as a demonstration, and a model's answer to its
# first test item: the gold steps with the last step's sub-answer one action too long,
# written as a harness sample file
define WORKED_ANSWER
import json, pathlib, re
from symcomp.core.steps import ANSWER_PATTERN
shown = json.loads(open("$(DEMO)/scan-worked/data/mcd/train.jsonl").readline())
print("-- a worked demonstration:\nInput: " + shown["input"] + "\n" + shown["worked"])
doc = json.loads(open("$(DEMO)/scan-worked/data/mcd/test.jsonl").readline())
print("-- a test item: Input: " + doc["input"])
lines = doc["worked"].split("\n")
lines[-2] = lines[-2] + " I_JUMP" if len(lines) > 1 else lines[-2]
answer = "\n".join(lines)
print("-- a model's answer:\n" + answer)
run = pathlib.Path("$(DEMO)/scan-worked-run")
run.mkdir(exist_ok=True)
sample = {"doc_id": 0, "doc": doc, "resps": [[answer]], "filtered_resps": [re.findall(ANSWER_PATTERN, answer)[0].strip()]}
(run / "samples_symcomp_scan_mcd_mcd_demo.jsonl").write_text(json.dumps(sample) + "\n")
endef
export WORKED_ANSWER

demo: $(STAMP)
	@echo "== symcomp languages"
	$(BIN)/symcomp languages
	@echo "== PCFG SET: 2,000 programs (seeded), with derivation DAGs"
	$(BIN)/symcomp generate pcfg-set --n 2000 --seed 0 --with-dag --out $(DEMO)/pcfg-set --overwrite
	$(BIN)/symcomp stats $(DEMO)/pcfg-set
	@echo "== SCAN: the whole language (20,910 commands)"
	$(BIN)/symcomp generate scan --all --out $(DEMO)/scan --overwrite
	$(BIN)/symcomp stats $(DEMO)/scan
	@echo "== SCAN: a maximum-compound-divergence split next to a random one (D_A atom, D_C compound divergence)"
	$(BIN)/symcomp split dbca $(DEMO)/scan --seed 0 --rounds 1 --out $(DEMO)/scan/mcd.json --overwrite
	$(BIN)/symcomp split random $(DEMO)/scan --seed 0 --out $(DEMO)/scan/random.json --overwrite
	@echo "== the MCD split measured with atoms counted per rule application instead of once per example (the default)"
	$(BIN)/symcomp divergence $(DEMO)/scan $(DEMO)/scan/mcd.json --atom-frequency occurrence
	@echo "== from a split to a scored model: the MCD split as a suite, a tiny LSTM trained on it, its report card"
	$(BIN)/symcomp suite from-splits $(DEMO)/scan $(DEMO)/scan/mcd.json --out $(DEMO)/scan-mcd --no-export --overwrite
	$(BIN)/symcomp train $(DEMO)/scan-mcd/mcd --model lstms2s --preset tiny --set epochs=2 --set threads=1 --out $(DEMO)/scan-mcd-lstm --overwrite
	$(BIN)/symcomp evaluate $(DEMO)/scan-mcd --model $(DEMO)/scan-mcd-lstm --threads 1
	@echo "== the MCD split for Hugging Face datasets (a DatasetDict folder with a dataset card) and GenBench"
	$(BIN)/symcomp export $(DEMO)/scan --split $(DEMO)/scan/mcd.json --format hf --out $(DEMO)/scan-hf --overwrite
	$(BIN)/symcomp export $(DEMO)/scan-mcd --format genbench --out $(DEMO)/scan-genbench --overwrite
	@echo "== the MCD suite as lm-evaluation-harness tasks, 4 covering demonstrations per item, in fresh words"
	@echo "   (run: lm-eval run --model hf --model_args pretrained=MODEL --include_path $(DEMO)/scan-lm-eval --tasks symcomp_scan_mcd --log_samples --output_path OUT;"
	@echo "   then: symcomp evaluate $(DEMO)/scan-mcd --predictions OUT; see docs/llm.md)"
	$(BIN)/symcomp export $(DEMO)/scan-mcd --format lm-eval --shots 4 --select cover --fresh-words 0 --out $(DEMO)/scan-lm-eval --overwrite
	$(BIN)/python -c "import json; m = json.load(open('$(DEMO)/scan-lm-eval/manifest.json')); print('fresh words:', m['fresh_words']['mapping']); [print(t, {k: round(v['mean'], 3) for k, v in e['coverage'].items()}) for t, e in m['tasks'].items()]"
	@echo "== worked steps: the MCD suite as worked harness tasks (each demonstration shows its steps, then its answer);"
	@echo "   one demonstration, then a model's answer to a test item (written here, one sub-answer wrong) checked against the grammar"
	$(BIN)/symcomp export $(DEMO)/scan-mcd --format lm-eval --steps --out $(DEMO)/scan-worked --overwrite
	$(BIN)/python -c "$$WORKED_ANSWER"
	$(BIN)/symcomp evaluate $(DEMO)/scan-mcd --predictions $(DEMO)/scan-worked-run --limit 1
	$(BIN)/symcomp evaluate $(DEMO)/scan-mcd --predictions $(DEMO)/scan-worked-run --limit 1 --json | $(BIN)/python -c "import json, sys; print('first wrong step:', json.load(sys.stdin)['tests']['mcd']['steps']['first_wrong'])"
	@echo "== Your own data: a COGS-style TSV (sentence -> logical form; parts train, dev, test, gen) and a CoNLL-U treebank, written by symcomp itself"
	$(BIN)/python -c "from pathlib import Path; from symcomp.data.corpus.samples import write_samples; write_samples(Path('$(DEMO)/own'))"
	$(BIN)/symcomp import --part train=$(DEMO)/own/train.tsv --part dev=$(DEMO)/own/dev.tsv --part test=$(DEMO)/own/test.tsv --part gen=$(DEMO)/own/gen.tsv --compounds grammar:$(DEMO)/own/lf.lark --on output --extractor-option tokens=true --out $(DEMO)/own/cogs --overwrite
	@echo "== the dataset's own splits measured: test (like train) and gen (proper names as subjects of transitive verbs, never in train)"
	$(BIN)/symcomp divergence $(DEMO)/own/cogs $(DEMO)/own/cogs/splits/published.json
	$(BIN)/symcomp divergence $(DEMO)/own/cogs $(DEMO)/own/cogs/splits/published-gen.json
	@echo "== one test drawn once, five training sets of one size from D_C 0 to the reachable maximum"
	$(BIN)/symcomp split sweep $(DEMO)/own/cogs --dev-frac 0.05 --seed 0 --rounds 2 --out $(DEMO)/own/cogs-sweep --overwrite
	@echo "== the treebank: atoms = lemmas and relations, compounds = (head lemma, relation, dependent lemma)"
	$(BIN)/symcomp import $(DEMO)/own/corpus.conllu --out $(DEMO)/own/treebank --overwrite
	$(BIN)/symcomp split dbca $(DEMO)/own/treebank --seed 0 --rounds 2 --out $(DEMO)/own/treebank-mcd.json --overwrite
	@echo "== COGS from its grammar: a small seeded suite (train, dev, test, the 21 gen cases), one sentence in three output formats, an MCD split of a pool"
	$(BIN)/symcomp suite cogs --n-train 2000 --n-dev 200 --n-test 200 --n-gen 20 --per-depth 2 --exposures-100 2 --no-export --out $(DEMO)/cogs-suite --overwrite
	$(BIN)/symcomp interpret cogs "The girl wanted to walk ."
	$(BIN)/symcomp suite cogs --n-train 20 --n-dev 0 --n-test 0 --n-gen 1 --per-depth 1 --exposures-100 1 --no-export --output varfree --out $(DEMO)/cogs-varfree --overwrite
	$(BIN)/symcomp generate cogs --n 2000 --seed 0 --out $(DEMO)/cogs --overwrite
	$(BIN)/symcomp split dbca $(DEMO)/cogs --seed 0 --rounds 1 --out $(DEMO)/cogs/mcd.json --overwrite
	@echo "== SLOG: a question in both logical forms (a verb's roles in underlying order), a small seeded suite (the 17 gen cases, each from its own IRTG grammar)"
	$(BIN)/symcomp interpret slog "Who did Emma give the cake to ?"
	$(BIN)/symcomp interpret slog --output-format varfree "Who did Emma give the cake to ?"
	$(BIN)/symcomp suite slog --scale 0.02 --n-gen 10 --no-export --out $(DEMO)/slog-suite --overwrite
	@echo "== PCFG-LET: 2,000 list-edit programs"
	$(BIN)/symcomp generate pcfg-let --n 2000 --seed 0 --out $(DEMO)/pcfg-let --overwrite
	$(BIN)/symcomp stats $(DEMO)/pcfg-let
	@echo "== interpret one PCFG SET program"
	$(BIN)/symcomp interpret pcfg-set "append swap_first_last A1 B2 C3 , repeat D4 E5"
	@echo "== export the PCFG SET pool for OpenNMT/fairseq and Hugging Face datasets"
	$(BIN)/symcomp export $(DEMO)/pcfg-set --format srctgt --overwrite
	$(BIN)/symcomp export $(DEMO)/pcfg-set --format hf --overwrite
	@echo "== PCFG SET's five compositionality tests (small, naturalised pool of 4,000)"
	$(BIN)/symcomp -q suite pcfg-set --n 4000 --seed 0 --out $(DEMO)/pcfg-set-suite --overwrite
	@echo "== report card with the paper views (<eos> both ways, held-out pairs, localism by depth and per function): an oracle against a baseline that copies the input strings"
	$(BIN)/symcomp evaluate $(DEMO)/pcfg-set-suite --model oracle --model copy-strings
	@echo "== train a small LSTM seq2seq (OpenNMT brnn, attention) on the suite's task split for one minute"
	@echo "   (one CPU-minute is far from the paper's 25 epochs on 82k programs: expect accuracies near 0;"
	@echo "   SCAN's simple split reaches 1.0 in 8 CPU-minutes, see docs/models.md)"
	$(BIN)/symcomp train $(DEMO)/pcfg-set-suite/task --model lstms2s --set max_minutes=1 --set threads=1 --out $(DEMO)/lstms2s-task --overwrite
	@echo "== its report card: the model runs in the loop (localism step by step)"
	$(BIN)/symcomp evaluate $(DEMO)/pcfg-set-suite --model $(DEMO)/lstms2s-task --threads 1 --test task --test localism --test per_function
	@echo "== Monotonicity NLI: 1,000 pairs with gold labels, every label proved: by a one-step monotonicity"
	@echo "   derivation or by worlds built from the formulas ('decided by:'), the solvers only by exception"
	$(BIN)/symcomp generate monotonicity --n 1000 --seed 0 --out $(DEMO)/monotonicity --overwrite
	$(BIN)/symcomp verify $(DEMO)/monotonicity --jobs 2
	@echo "== one row's certificate in words: the site of the edit, its polarity, the step"
	$(BIN)/symcomp verify $(DEMO)/monotonicity --explain 2
	@echo "== the paper's construction (Yanaka et al. 2020: r1-r4 at the deepest noun, protocols I and II as published)"
	$(BIN)/symcomp -q suite monotonicity --profile paper --n 2000 --seed 0 --out $(DEMO)/monotonicity-paper --overwrite
	@echo "== exact numerals: 'More than three dogs ran.' entails 'At least three dogs ran.'"
	$(BIN)/symcomp interpret monotonicity "More than three dogs ran."
	@echo "== CobA arithmetic: the five partitions at 1/10 scale, with their Table 1 statistics beside the paper's"
	$(BIN)/symcomp -q suite arithmetic --in-domain 2400 --generalisation 1200 --out $(DEMO)/arithmetic --overwrite
	@echo "== CobA baselines: random guessing and the constant mean (RMSE; lower is better)"
	$(BIN)/symcomp evaluate $(DEMO)/arithmetic --model random-guess --model constant-mean
	@echo "== reproduce a paper's finding at tiny scale: Keysers et al. 2020 on SCAN, accuracy vs"
	@echo "   compound divergence up to the MCD split (--scale small: ~40 CPU-minutes, see"
	@echo "   docs/reproductions.md)"
	$(BIN)/symcomp reproduce keysers2020 --scale tiny --device cpu --out $(DEMO)/keysers2020
	@echo "== the same command again continues the reproduction in place: finished runs and scores are"
	@echo "   kept (nothing is trained again); another seed or scale there is refused without --overwrite"
	$(BIN)/symcomp reproduce keysers2020 --scale tiny --device cpu --out $(DEMO)/keysers2020

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

# worksteal: an idle worker takes queued tests from the busy one (a few tests take a minute).
PYTEST := $(BIN)/pytest -n 2 --dist worksteal
unit: $(STAMP)
	$(PYTEST)

# ruff first (a second); the import contracts and mypy (one core) then run beside the tests
# (two workers): run one after the other, one core idled through them. Their report is printed
# after the tests'; any failing fails.
test: $(STAMP)
	$(BIN)/ruff check .
	@( $(BIN)/lint-imports; imports=$$?; $(BIN)/mypy && exit $$imports ) > $(VENV)/checks.log 2>&1 & checks=$$!; \
	$(PYTEST); unit=$$?; \
	wait $$checks; checked=$$?; echo "== import contracts, mypy"; cat $(VENV)/checks.log; \
	test $$unit -eq 0 && test $$checked -eq 0

# the development loop: everything but the tests marked slow (CI runs `make test`)
quick: $(STAMP)
	$(BIN)/pytest -n 2 -m "not slow"

clean:
	rm -rf $(VENV) runs .mypy_cache .ruff_cache .pytest_cache
