from symcomp.core.grammar_source import scan_rules


def aliases(text: str) -> dict[str, list[str | None]]:
    return {rule.name: [alt.alias for alt in rule.alternatives] for rule in scan_rules(text)}


def test_alternatives_split_at_top_level_bars_only():
    text = 'start: ("a" | "b") x -> first\n     | "|" y -> second\n'
    assert aliases(text) == {"start": ["first", "second"]}


def test_comments_strings_and_regexps_do_not_confuse_the_scanner():
    text = (
        "// start: nope | nope\n"
        'start: "a//b" WORD -> one   // a comment | with a bar\n'
        "     | /x|y/ -> two\n"
        "WORD: /[a-z]+/\n"
        '%ignore " "\n'
    )
    assert aliases(text) == {"start": ["one", "two"]}


def test_modifiers_priorities_and_lines_are_recorded():
    rules = scan_rules('?expr.2: a -> x\n    | b -> y\n\n!tok: "t"\n_inner: a | b\n')
    assert [(r.name, r.modifiers, r.line) for r in rules] == [
        ("expr", "?", 1),
        ("tok", "!", 4),
        ("_inner", "", 5),
    ]
    assert [alt.line for alt in rules[0].alternatives] == [1, 2]
    assert rules[2].inlined


def test_terminal_definitions_are_not_rules():
    assert aliases('start: A\nA: "a" | "b"\n_B: "c"\n') == {"start": [None]}


def test_template_parameters_are_flagged():
    (rule,) = scan_rules("sep{x, y}: x y\n")
    assert rule.has_template_params
