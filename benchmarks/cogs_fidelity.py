"""How faithful symcomp's COGS is to the published data (issue 36's "must be true" 1-6).

Reads the published files (``--published``, default ``../shared/peers/cogs``), builds the suite
(``symcomp suite cogs``, timed) and a 30,000-sentence pool per seed, and measures:

1. parse and logical-form agreement on every published row, per split and per gen case
   (and ReCOGS's positional dev/test when ``--recogs`` names a ``recogs_positional_index``
   folder);
2. ambiguity: the grammar's strict LALR(1) analysis, and Earley with explicit ambiguity on
   published and sampled sentences;
3. the suite's composition and constraint violations;
4. total variation distances between a 30,000 pool and published train+dev+test (two seeds
   give the noise floor);
5. each gen case against the published case;
6. CPU seconds of the suite and peak memory of generating ``--million`` sentences;
7. with ``--two-sample`` (or ``--two-sample-only``): two-sample tests (:mod:`two_sample`): for
   the in-distribution train and each of the 21 gen cases, symcomp's rows (``--seeds`` suites
   of 1,000 rows a case, built with ``symcomp suite cogs --seed S --n-train 1 --n-dev 0
   --n-test 0``; the in-distribution train of ``symcomp suite cogs --seed 0``) against the
   published ones, the permutation test of the chi-square of three statistics (clause
   skeleton, length in words, the case's slot), Holm's correction over the family; JSON in
   ``cogs_fidelity.json``, the table in ``cogs_two_sample.md``.

    python benchmarks/cogs_fidelity.py [--out runs/benchmarks] [--million 1000000]
        [--two-sample | --two-sample-only]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import two_sample
from lark import Tree

from symcomp.core.registry import get_language
from symcomp.languages.cogs.cases import CASES, Case
from symcomp.languages.cogs.generation import Drawer, depth
from symcomp.languages.cogs.language import with_output

REPO = Path(__file__).resolve().parents[1]
NP_RULES = {
    "nsubj",
    "nsubjpass",
    "nsubjpass_inanimate",
    "unacc_subject",
    "iobj",
    "object_inanimate",
    "object_animate",
    "theme",
    "np_on",
    "np_in",
    "np_beside",
}
TARGETS = {case.target for case in CASES.values()}


def rows(path: Path) -> list[tuple[str, str, str]]:
    with path.open(encoding="utf-8") as handle:
        return [tuple(line.rstrip("\n").split("\t")) for line in handle]  # type: ignore[misc]


def tvd(p: Counter[Any], q: Counter[Any]) -> float:
    """Total variation distance of two count distributions."""
    total_p, total_q = sum(p.values()), sum(q.values())
    keys = set(p) | set(q)
    return 0.5 * sum(abs(p[k] / total_p - q[k] / total_q) for k in keys)


def rule_of(alias: str) -> str:
    info = get_language("cogs").grammar.aliases.get(alias)
    return info.rule if info else alias


# the alias of a PP and of its noun phrase name the preposition (COGS draws each preposition's
# nouns from its own list): a word, not structure
PREPOSITION_ALIASES = {"pp_on": "pp", "pp_in": "pp", "pp_beside": "pp"}
PREPOSITION_ALIASES |= {"on_np": "pp_np", "in_np": "pp_np", "beside_np": "pp_np"}
PREPOSITION_ALIASES |= {"on_np_pp": "pp_np_pp", "in_np_pp": "pp_np_pp", "beside_np_pp": "pp_np_pp"}


def skeleton(tree: Tree[Any], collapse: bool, prepositions: bool = True) -> str:
    """The alias tree without words; ``collapse``: every noun phrase is just ``NP``;
    ``prepositions`` False: a PP is a PP whichever preposition it has."""
    if collapse and rule_of(str(tree.data)) in NP_RULES:
        return "NP"
    name = str(tree.data)
    if not prepositions:
        name = PREPOSITION_ALIASES.get(name, name)
    inner = " ".join(
        skeleton(c, collapse, prepositions) for c in tree.children if isinstance(c, Tree)
    )
    return f"({name} {inner})" if inner else name


def nodes(
    tree: Tree[Any], parents: tuple[str, ...] = ()
) -> Iterable[tuple[Tree[Any], tuple[str, ...]]]:
    yield tree, parents
    for child in tree.children:
        if isinstance(child, Tree):
            yield from nodes(child, (*parents, str(tree.data)))


def matrix_type(tree: Tree[Any]) -> str:
    clause = tree.children[0] if tree.data == "declarative" else tree
    if not isinstance(clause, Tree):
        return str(tree.data)
    verb_phrases = [c.data for c in clause.children if isinstance(c, Tree)]
    return f"{clause.data}/{verb_phrases[-1] if verb_phrases else ''}"


def np_types(trees: Sequence[Tree[Any]]) -> dict[str, Counter[str]]:
    found: dict[str, Counter[str]] = {}
    for tree in trees:
        for node, _parents in nodes(tree):
            rule = rule_of(str(node.data))
            if rule in NP_RULES:
                found.setdefault(rule, Counter())[str(node.data)] += 1
    return found


def distributions(trees: Sequence[Tree[Any]], texts: Sequence[str]) -> dict[str, Counter[Any]]:
    return {
        "clause_skeleton": Counter(skeleton(t, True) for t in trees),
        "full_skeleton": Counter(skeleton(t, False) for t in trees),
        "full_skeleton_any_preposition": Counter(skeleton(t, False, False) for t in trees),
        "length": Counter(len(text.split()) for text in texts),
        "word_unigrams": Counter(w for text in texts for w in text.split()),
        "matrix_clause": Counter(matrix_type(t) for t in trees),
    }


def share_gaps(p: Counter[str], q: Counter[str]) -> float:
    total_p, total_q = sum(p.values()), sum(q.values())
    return max(abs(p[k] / total_p - q[k] / total_q) for k in set(p) | set(q))


# -- 1, 2 -------------------------------------------------------------------------------------


def conformance(published: Path, recogs: Path | None) -> dict[str, Any]:
    language = get_language("cogs")
    result: dict[str, Any] = {}
    for split in ("train", "dev", "test", "gen"):
        for sentence, lf, category in rows(published / f"{split}.tsv"):
            part = category if split == "gen" else split
            if category == "primitive":
                part = "train_primitives"
            cell = result.setdefault(part, {"rows": 0, "parsed": 0, "exact": 0})
            cell["rows"] += 1
            try:
                out = language.interpret(sentence)
            except Exception:
                continue
            cell["parsed"] += 1
            cell["exact"] += out == lf
    if recogs is not None:
        positional = with_output(language, "recogs_positional_index")
        for split in ("dev", "test"):
            data = rows(recogs / f"{split}.tsv")
            exact = sum(positional.interpret(s) == lf for s, lf, *_ in data)
            result[f"recogs_positional_{split}"] = {"rows": len(data), "exact": exact}
    return result


def ambiguity(published: Path, sampled: Sequence[str], earley_rows: int) -> dict[str, Any]:
    import lark
    from lark.common import ParserConf
    from lark.parsers.lalr_analysis import LALR_Analyzer

    grammar = get_language("cogs").grammar
    LALR_Analyzer(ParserConf(grammar.lark.rules, {}, ["start"]), strict=True).compute_lalr()  # type: ignore[no-untyped-call]
    earley = lark.Lark(
        grammar.lark_text, parser="earley", ambiguity="explicit", maybe_placeholders=False
    )
    texts = [
        s
        for split in ("train", "dev", "test", "gen")
        for s, _lf, _c in rows(published / f"{split}.tsv")
    ]
    step = max(1, len(texts) // earley_rows)
    checked = {"published": texts[::step], "sampled": list(sampled)}
    found = {}
    for name, sentences in checked.items():
        ambiguous = 0
        for sentence in sentences:
            first, _space, rest = sentence.partition(" ")
            text = f"{first.lower()} {rest}" if first in ("A", "The") else sentence
            tree = earley.parse(text)
            ambiguous += any(t.data == "_ambig" for t in tree.iter_subtrees())
        found[name] = {"sentences": len(sentences), "ambiguous": ambiguous}
    return {"lalr1_conflicts": 0, "earley": found}


# -- 3 ----------------------------------------------------------------------------------------


def suite_checks(suite: Path) -> dict[str, Any]:
    language = get_language("cogs")
    records = [json.loads(line) for line in (suite / "examples.jsonl").open(encoding="utf-8")]
    by_part: dict[str, Counter[str]] = {}
    for record in records:
        by_part.setdefault(record["meta"]["part"], Counter())[record["meta"]["category"]] += 1
    violations: Counter[str] = Counter()
    lexicon = language.grammar.sidecar.lexicon
    noun_words = {
        w
        for t in ("N_ANIMATE", "N_INANIMATE", "N_PROPER", "N_ON", "N_IN", "N_BESIDE")
        for w in lexicon[t]
    }
    seen: dict[str, str] = {}
    depths: dict[str, Counter[int]] = {"pp_recursion": Counter(), "cp_recursion": Counter()}
    for record in records:
        part, category, text = record["meta"]["part"], record["meta"]["category"], record["input"]
        if part != "train_100_exposures":
            if text in seen:
                violations["duplicate_sentence"] += 1
            seen[text] = part
        if category == "primitive":
            continue
        tree = language.parse(text)
        nouns = [w for w in text.split() if w in noun_words]
        if len(nouns) != len(set(nouns)):
            violations["repeated_noun"] += 1
        pp, cp = depth(tree, ["pp_on", "pp_in", "pp_beside"]), depth(tree, ["clausal_complement"])
        if category in depths:
            depths[category][pp if category == "pp_recursion" else cp] += 1
        elif pp > 2 or cp > 2:
            violations["depth_cap"] += 1
        targets = [w for w in text.split() if w in TARGETS]
        if part in ("train", "dev", "test") and category == "in_distribution" and targets:
            violations["target_outside_its_rows"] += 1
        if part == "gen" and category in CASES and targets != [CASES[category].target]:
            violations["not_one_target"] += 1
    return {
        "composition": {part: dict(sorted(c.items())) for part, c in by_part.items()},
        "violations": dict(violations),
        "recursion_depths": {k: dict(sorted(v.items())) for k, v in depths.items()},
    }


# -- 4, 5 -------------------------------------------------------------------------------------


def pool(seed: int, n: int) -> tuple[list[Tree[Any]], list[str]]:
    drawer = Drawer(get_language("cogs"), seed)
    sentences = drawer.take(n)
    return [s.tree for s in sentences], [s.text for s in sentences]


def fidelity(published: Path) -> dict[str, Any]:
    language = get_language("cogs")
    texts = [
        s
        for split in ("train", "dev", "test")
        for s, _lf, c in rows(published / f"{split}.tsv")
        if c == "in_distribution"
    ]
    trees = [language.parse(t) for t in texts]
    reference = distributions(trees, texts)
    result: dict[str, Any] = {}
    pools = {seed: pool(seed, 30_000) for seed in (0, 1)}
    for seed, (ptrees, ptexts) in pools.items():
        mine = distributions(ptrees, ptexts)
        cell: dict[str, Any] = {key: round(tvd(mine[key], reference[key]), 4) for key in mine}
        cell["matrix_clause_max_gap"] = round(
            share_gaps(mine["matrix_clause"], reference["matrix_clause"]), 4
        )
        gaps = {}
        ours, theirs = np_types(ptrees), np_types(trees)
        for slot in theirs:
            gaps[slot] = round(share_gaps(ours.get(slot, Counter()), theirs[slot]), 4)
        cell["np_type_max_gap_per_slot"] = gaps
        result[f"seed_{seed}"] = cell
    floor = {
        key: round(tvd(distributions(*pools[0])[key], distributions(*pools[1])[key]), 4)
        for key in reference
    }
    result["noise_floor_seed0_vs_seed1"] = floor
    return result


def target_facts(trees: Sequence[Tree[Any]], case: str) -> dict[str, float]:
    target = CASES[case].target if case in CASES else None
    embedded = with_pp = common = 0
    for tree in trees:
        for node, parents in nodes(tree):
            if target is None or target not in node.children:
                continue
            embedded += "clausal_complement" in parents
            if str(node.data).endswith(("common", "common_pp", "animate", "animate_pp")):
                common += 1
                with_pp += str(node.data).endswith("_pp")
    n = max(1, len(trees))
    return {
        "embedded_share": embedded / n,
        "pp_share_of_common": with_pp / common if common else 0.0,
    }


def innermost(tree: Tree[Any]) -> str:
    clauses = [n for n, _p in nodes(tree) if rule_of(str(n.data)) == "sentence"]
    return matrix_type(clauses[-1]) if clauses else ""


def gen_cases(published: Path, suite: Path) -> dict[str, Any]:
    language = get_language("cogs")
    theirs: dict[str, list[Tree[Any]]] = {}
    for sentence, _lf, category in rows(published / "gen.tsv"):
        theirs.setdefault(category, []).append(language.parse(sentence))
    ours: dict[str, list[Tree[Any]]] = {}
    for line in (suite / "examples.jsonl").open(encoding="utf-8"):
        record = json.loads(line)
        if record["meta"]["part"] == "gen":
            ours.setdefault(record["meta"]["category"], []).append(language.parse(record["input"]))
    result = {}
    for case in sorted(theirs):
        a, b = ours.get(case, []), theirs[case]
        cell: dict[str, Any] = {
            "clause_skeleton_tvd": round(
                tvd(Counter(skeleton(t, True) for t in a), Counter(skeleton(t, True) for t in b)), 4
            ),
            "full_skeleton_tvd": round(
                tvd(Counter(skeleton(t, False) for t in a), Counter(skeleton(t, False) for t in b)),
                4,
            ),
        }
        if case in CASES:
            mine, reference = target_facts(a, case), target_facts(b, case)
            cell.update({f"{k}_symcomp": round(v, 4) for k, v in mine.items()})
            cell.update({f"{k}_published": round(v, 4) for k, v in reference.items()})
        if case == "cp_recursion":
            cell["innermost_tvd"] = round(
                tvd(Counter(map(innermost, a)), Counter(map(innermost, b))), 4
            )
            cell["innermost_types_same"] = set(map(innermost, a)) == set(map(innermost, b))
        result[case] = cell
    return result


# -- 7: two-sample tests ----------------------------------------------------------------------

PP_ALIASES = frozenset({"pp_on", "pp_in", "pp_beside"})
PP_NP_RULES = frozenset({"np_on", "np_in", "np_beside"})
Ancestors = tuple[Tree[Any], ...]


def walk(tree: Tree[Any], above: Ancestors = ()) -> Iterable[tuple[Tree[Any], Ancestors]]:
    """Every node with the nodes above it (root first)."""
    yield tree, above
    for child in tree.children:
        if isinstance(child, Tree):
            yield from walk(child, (*above, tree))


def cp_depth(above: Ancestors) -> int:
    """How many clausal complements a node sits in (0: the matrix clause)."""
    return sum(node.data == "clausal_complement" for node in above)


def level(above: Ancestors) -> str:
    depth = cp_depth(above)
    return f"cp{depth}" if depth else "matrix"


def words(text: str) -> int:
    """The length in words, the final full stop not counted."""
    tokens = text.split()
    return len(tokens) - (tokens[-1:] == ["."])


def has_pp(node: Tree[Any]) -> bool:
    return any(isinstance(c, Tree) and c.data in PP_ALIASES for c in node.children)


def target_slot(tree: Tree[Any], target: str) -> str:
    """Where a lexical case's target is: ``matrix`` or ``embedded`` (under a clausal
    complement), crossed with ``pp`` / ``no_pp``: for a noun target, whether its noun phrase
    has a PP; for a verb target, whether a noun phrase of its own clause has one."""
    for node, above in walk(tree):
        if target not in node.children:
            continue
        where = "embedded" if cp_depth(above) else "matrix"
        if rule_of(str(node.data)) in NP_RULES:
            return f"{where}/{'pp' if has_pp(node) else 'no_pp'}"
        clause = next(a for a in reversed(above) if rule_of(str(a.data)) == "sentence")
        inside = any(n.data in PP_ALIASES for n, _a in walk(clause))
        return f"{where}/{'pp' if inside else 'no_pp'}"
    raise ValueError(f"{target!r} is not in {text_of_tree(tree)!r}")


def text_of_tree(tree: Tree[Any]) -> str:
    return " ".join(str(leaf) for leaf in tree.scan_values(lambda v: not isinstance(v, Tree)))


def pp_hosts(tree: Tree[Any]) -> str:
    """The noun phrases that carry a PP (not a PP inside a PP), as ``rule/level`` in token
    order; ``none`` without one."""
    found = [
        f"{rule_of(str(node.data))}/{level(above)}"
        for node, above in walk(tree)
        if has_pp(node) and rule_of(str(node.data)) not in PP_NP_RULES
    ]
    return " + ".join(found) or "none"


def slot(tree: Tree[Any], case: str) -> str:
    """The case's slot statistic (docs/cogs.md says what each one is and why)."""
    if case in CASES:
        return target_slot(tree, CASES[case].target)
    if case == "cp_recursion":
        return innermost(tree)
    return pp_hosts(tree)  # obj_pp_to_subj_pp, pp_recursion and the in-distribution pool


def statistics(texts: Sequence[str], case: str) -> dict[str, list[str]]:
    """The three categorical statistics of each sentence: clause skeleton, length, slot."""
    language = get_language("cogs")
    trees = [language.parse(text) for text in texts]
    return {
        "clause_skeleton": [skeleton(t, True) for t in trees],
        "length": [str(words(text)) for text in texts],
        "slot": [slot(t, case) for t in trees],
    }


def published_samples(train: Path, gen: Path) -> dict[str, list[str]]:
    """The published in-distribution train and each gen case's sentences (COGS's and SLOG's
    files share the sentence, logical form, category layout)."""
    found: dict[str, list[str]] = {"in_distribution": []}
    for sentence, _lf, category in rows(train):
        if category == "in_distribution":
            found["in_distribution"].append(sentence)
    for sentence, _lf, category in rows(gen):
        found.setdefault(category, []).append(sentence)
    return found


def symcomp_samples(folder: Path, seeds: int, single: bool, reuse: bool) -> tuple[Any, float]:
    """symcomp's in-distribution train (``suite cogs --seed 0``, COGS's 24,000) and each gen
    case: ``seeds`` suites (seeds 0..seeds-1) of 1,000 rows a case, or with ``single`` one
    suite of ``seeds`` × 1,000 a case; the CPU seconds the builds took."""
    found: dict[str, list[str]] = {}
    cpu = two_sample.build_suite("cogs", folder / "cogs-seed0", ["--seed", "0"], reuse=reuse)
    found["in_distribution"] = two_sample.suite_texts(folder / "cogs-seed0", "train")[
        "in_distribution"
    ]
    small = ["--n-train", "1", "--n-dev", "0", "--n-test", "0"]
    sizes = ["--n-gen", str(1000 * seeds), "--per-depth", str(100 * seeds)]
    runs = [(folder / f"cogs-gen-seed{s}", [*small, "--seed", str(s)]) for s in range(seeds)]
    if single:
        runs = [(folder / "cogs-gen-single", [*small, *sizes])]
    for out, options in runs:
        cpu += two_sample.build_suite("cogs", out, options, reuse=reuse)
        for case, texts in two_sample.suite_texts(out, "gen").items():
            found.setdefault(case, []).extend(texts)
    return found, cpu


def two_sample_tests(published: Path, args: argparse.Namespace) -> dict[str, Any]:
    """Section 7: for the in-distribution pool and every gen case, the permutation test of
    each statistic, symcomp's rows against the published ones; Holm over the family."""
    started = two_sample.cpu_seconds()
    theirs = published_samples(published / "train.tsv", published / "gen.tsv")
    ours, build_cpu = symcomp_samples(args.samples, args.seeds, args.single, args.reuse_samples)
    samples, section = two_sample.compared(
        ours, theirs, statistics, args, build_cpu=build_cpu, since=started
    )
    section["embedding"] = embedding(samples, theirs["in_distribution"], args)
    section["cpu_seconds"] = round(two_sample.cpu_seconds() - started, 1)
    return section


# the lexical cases with sentences of their own (prim_to_obj_* are subj_to_obj_*'s, target
# swapped), less the three whose matrix sentences run out: a target subject of an unergative,
# object-omitted or unaccusative verb has 40 (2 determiners x 20 verbs), and every suite and
# the published case hold all 40, so the rest of their 1,000 rows must be embedded
EMBEDDING_CASES = [
    name for name, case in CASES.items() if case.pair is None and not name.startswith("only_seen")
]


def embedding(
    samples: Mapping[str, Any], train: Sequence[str], args: argparse.Namespace
) -> dict[str, Any]:
    """Evidence on the lexical cases' slot: the share of rows whose target is in an embedded
    clause in symcomp's suites (mean and standard deviation over the suites), the published
    case, and the published train's in-distribution rows that have the case's slot (where
    COGS's grammar alone, with no target, put it); and permutation tests that the published
    cases, or symcomp's, share one embedding rate (``EMBEDDING_CASES``)."""
    language = get_language("cogs")
    trees = [language.parse(text) for text in train]
    found: dict[str, Any] = {}
    for name in EMBEDDING_CASES:
        ours, theirs = (samples[name]["slot"][i] for i in (0, 1))
        suites = [ours] if args.single else _chunks(ours, args.seeds)
        shares = [_embedded(chunk) for chunk in suites]
        slots = [s for s in (_train_slot(t, CASES[name]) for t in trees) if s is not None]
        found[name] = {
            "symcomp_mean": round(float(np.mean(shares)), 4),
            "symcomp_sd": round(float(np.std(shares, ddof=1)), 4) if len(shares) > 1 else None,
            "published": round(_embedded(theirs), 4),
            "published_train": round(_embedded(slots), 4),
            "published_train_rows": len(slots),
        }
    tests = {
        who: two_sample.homogeneity_test(
            [[label.split("/")[0] for label in samples[n]["slot"][i]] for n in EMBEDDING_CASES],
            permutations=args.permutations // 10,
            seed=args.test_seed,
        )
        for who, i in (("symcomp", 0), ("published", 1))
    }
    found["one_rate"] = {
        who: {"chi_square": round(t.statistic, 2), "p": t.p_value, "cases": len(EMBEDDING_CASES)}
        for who, t in tests.items()
    }
    return found


def embedding_table(found: dict[str, Any]) -> str:
    """The embedding evidence as Markdown: one line per case, then the one-rate tests."""
    lines = [
        "| case | embedded: symcomp mean (sd) | published | published train (rows) |",
        "|---|---:|---:|---:|",
    ]
    for name in EMBEDDING_CASES:
        cell = found[name]
        sd = "–" if cell["symcomp_sd"] is None else f"{cell['symcomp_sd']:.3f}"
        lines.append(
            f"| {name} | {cell['symcomp_mean']:.3f} ({sd}) | "
            f"{cell['published']:.3f} | {cell['published_train']:.3f} "
            f"({cell['published_train_rows']:,}) |"
        )
    tests = "; ".join(
        f"{who}: chi-square {t['chi_square']}, p = {t['p']:.2g}"
        for who, t in found["one_rate"].items()
    )
    return (
        "\n".join(lines)
        + f"\n\nOne embedding rate over the {len(EMBEDDING_CASES)} cases: {tests}.\n"
    )


def _embedded(labels: Sequence[str]) -> float:
    return sum(label.startswith("embedded") for label in labels) / max(1, len(labels))


def _chunks(labels: Sequence[str], parts: int) -> list[Sequence[str]]:
    """The rows of each suite (the suites' rows follow one another, 1,000 each)."""
    size = len(labels) // parts
    return [labels[i * size : (i + 1) * size] for i in range(parts)]


def _train_slot(tree: Tree[Any], case: Case) -> str | None:
    """Where the case would write its target in a train sentence (its last eligible slot),
    ``matrix`` or ``embedded``; None without a slot."""
    found = case.find(tree)
    if not found:
        return None
    inside = {id(node) for node, above in walk(tree) if cp_depth(above)}
    return "embedded" if id(found[-1][0]) in inside else "matrix"


# -- 6 ----------------------------------------------------------------------------------------


def timed_suite(out: Path) -> dict[str, Any]:
    symcomp = str(Path(sys.executable).with_name("symcomp"))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [symcomp, "-q", "suite", "cogs", "--out", str(out), "--overwrite"],
        check=True,
        capture_output=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"cpu_seconds": round(cpu, 1), "wall_seconds": round(time.perf_counter() - started, 1)}


def generation_memory(n: int, out: Path) -> dict[str, Any]:
    symcomp = str(Path(sys.executable).with_name("symcomp"))
    command = [symcomp, "-q", "generate", "cogs", "--n", str(n), "--out", str(out), "--overwrite"]
    started = time.perf_counter()
    result = subprocess.run(
        ["/usr/bin/time", "-f", "%M %U %S", *command],
        capture_output=True,
        text=True,
        check=True,
    )
    peak_kb, user, system = result.stderr.strip().splitlines()[-1].split()
    return {
        "n": n,
        "peak_rss_mb": round(int(peak_kb) / 1024, 1),
        "cpu_seconds": round(float(user) + float(system), 1),
        "wall_seconds": round(time.perf_counter() - started, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--published", type=Path, default=REPO.parent / "shared" / "peers" / "cogs")
    parser.add_argument("--recogs", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks"))
    parser.add_argument("--million", type=int, default=0, help="Also time generating this many.")
    parser.add_argument("--earley-rows", type=int, default=3000)
    two_sample.add_options(parser, "section 7")
    args = parser.parse_args()
    two_sample.prepare_folders(args)
    report: dict[str, Any] = {}
    if not args.two_sample_only:
        report.update(other_sections(args))
    if args.two_sample or args.two_sample_only:
        report["7_two_sample"] = two_sample_tests(args.published, args)
        markdown = two_sample.section_markdown(report["7_two_sample"], sys.argv)
        markdown += "\n" + embedding_table(report["7_two_sample"]["embedding"])
        (args.out / "cogs_two_sample.md").write_text(markdown, encoding="utf-8")
        sys.stdout.write(markdown)
    text = json.dumps(report, indent=1, sort_keys=True)
    (args.out / "cogs_fidelity.json").write_text(text + "\n", encoding="utf-8")
    if not args.two_sample_only:
        sys.stdout.write(text + "\n")


def other_sections(args: argparse.Namespace) -> dict[str, Any]:
    """Sections 1-6."""
    suite = args.out / "cogs-suite"
    report: dict[str, Any] = {"6_suite": timed_suite(suite)}
    report["1_conformance"] = conformance(args.published, args.recogs)
    sampled = pool(7, 10_000)[1]
    report["2_ambiguity"] = ambiguity(args.published, sampled, args.earley_rows)
    report["3_suite"] = suite_checks(suite)
    report["4_pool_vs_published"] = fidelity(args.published)
    report["5_gen_cases"] = gen_cases(args.published, suite)
    if args.million:
        report["6_generate"] = generation_memory(args.million, args.out / "cogs-million")
    return report


if __name__ == "__main__":
    main()
