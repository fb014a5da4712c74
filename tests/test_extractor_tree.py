"""TMCD atoms and compounds of FunQL / s-expression trees against a transcription of NQG's code.

The oracle below is NQG's own code, so symcomp's extractor is checked against what Shaw et al.
(2021) ran, not against our reading of the paper.
"""

from __future__ import annotations

import collections
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symcomp.dbca.extractors.tree import funql_atoms_compounds, sexpr_atoms_compounds
from symcomp.errors import DataError

# --------------------------------------------------------------------------------------------
# Oracle: a verbatim transcription (type hints and Python-3 spelling aside) of
#   google-research/language, commit 865fae65f63ef7e6b2989d4ff8b47f61750415a8:
#   language/compgen/nqg/tasks/geoquery/tmcd_utils.py (get_atoms, get_compounds and helpers),
#   language/compgen/nqg/tasks/geoquery/funql_normalization.py (add_space_separation),
#   language/compgen/nqg/tasks/geoquery/xml_file_utils.py (process_funql).
# Copyright 2018 The Google AI Language Team Authors. Licensed under the Apache License,
# Version 2.0 (the "License"); you may not use this code except in compliance with the License.
# You may obtain a copy of the License at http://www.apache.org/licenses/LICENSE-2.0. Unless
# required by applicable law or agreed to in writing, software distributed under the License is
# distributed on an "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express
# or implied. See the License for the specific language governing permissions and limitations
# under the License.
# --------------------------------------------------------------------------------------------

_PLACEHOLDER = "__"


def _split_arguments(args_string: str) -> list[str]:
    argument_buffer: list[str] = []
    arguments = []
    open_parens = 0
    for char in args_string:
        if char == "," and open_parens == 0:
            arguments.append("".join(argument_buffer))
            argument_buffer = []
        elif char == " " and not argument_buffer:
            continue
        else:
            if char == "(":
                open_parens += 1
            elif char == ")":
                open_parens -= 1
            argument_buffer.append(char)
    arguments.append("".join(argument_buffer))
    return arguments


def _get_name_and_arguments(funql: str) -> tuple[str, list[str] | None]:
    funql = funql.strip()
    paren_index = funql.find("(")
    if paren_index == -1:
        return funql, None
    name = funql[:paren_index].strip()
    arguments = funql[paren_index + 1 :].strip()
    if arguments[-1] != ")":
        raise ValueError(
            "Invalid arguments string ends with %s: %s"  # noqa: UP031
            % (arguments[-1], arguments)
        )
    return name, _split_arguments(arguments[:-1])


def _get_compound_string(outer: str, outer_arity: int, inner: str, inner_idx: int) -> str:
    arguments = [_PLACEHOLDER] * outer_arity
    arguments[inner_idx] = inner
    return "%s( %s )" % (outer, " , ".join(arguments))  # noqa: UP031


def _get_compounds_inner(funql: str, compounds_to_counts: Counter[str]) -> None:
    name, arguments = _get_name_and_arguments(funql)
    if not arguments:
        return

    for argument_idx, argument in enumerate(arguments):
        argument_name, _ = _get_name_and_arguments(argument)
        compound = _get_compound_string(name, len(arguments), argument_name, argument_idx)
        compounds_to_counts[compound] += 1
        _get_compounds_inner(argument, compounds_to_counts)


def get_compounds(target: str) -> Counter[str]:
    compounds_to_count: Counter[str] = collections.Counter()
    _get_compounds_inner(target, compounds_to_count)
    return compounds_to_count


def get_atoms(target: str) -> set[str]:
    atoms = set()
    for token in target.split():
        if token not in ("(", ")", ","):
            atoms.add(token)
    return atoms


def add_space_separation(funql: str) -> str:
    separators = "(),"
    buffer = ""
    symbols = []
    for char in funql:
        if char in separators:
            if buffer:
                symbols.append(buffer)
                buffer = ""
            symbols.append(char)
        else:
            buffer += char
    if buffer:
        symbols.append(buffer)
    return " ".join(symbols)


def process_funql(funql: str) -> str:
    funql = funql.replace("'", "")
    funql = funql.replace(",  ", ",")
    funql = funql.replace(", ", ",")
    funql = funql.replace(" ,", ",")
    return funql


# ---- end of the transcription ----------------------------------------------------------------

# NQG deletes quotes before parsing, so a ( ) , inside a quoted constant would split it; symcomp
# keeps a quoted constant whole. To compare on such constants, the test hides those three
# characters (and the quotes) before NQG's pipeline and puts them back in its answers.
_HIDE = str.maketrans("(),", "\x01\x02\x03")
_SHOW = str.maketrans("\x01\x02\x03", "(),")
_QUOTED = re.compile(r"""'([^']*)'|"([^"]*)\"""")


def _hide_quoted(funql: str) -> str:
    def hide(match: re.Match[str]) -> str:
        content = match.group(1) if match.group(1) is not None else match.group(2)
        return content.translate(_HIDE)

    return _QUOTED.sub(hide, funql)


def nqg_target(funql: str) -> str:
    """The target NQG's TSV would hold (write_dataset.py, entity replacement aside)."""
    return add_space_separation(process_funql(_hide_quoted(funql)))


def oracle(funql: str) -> tuple[set[str], Counter[str]]:
    target = nqg_target(funql)
    atoms = {atom.translate(_SHOW) for atom in get_atoms(target)}
    compounds = Counter({key.translate(_SHOW): n for key, n in get_compounds(target).items()})
    return atoms, compounds


def to_sexpr(funql: str) -> str:
    """The s-expression rendering of a FunQL string, built with NQG's own parser."""
    return _render(nqg_target(funql))


def _render(target: str) -> str:
    name, arguments = _get_name_and_arguments(target)
    symbol = name.translate(_SHOW)
    if re.search(r"""[\s()',"]""", symbol):
        symbol = f'"{symbol}"' if "'" in symbol else f"'{symbol}'"
    if not arguments:
        return symbol
    return "(" + " ".join([symbol, *map(_render, arguments)]) + ")"


# Depth = nodes on the longest root-leaf path; arities 0-3; `_`; quoted constants.
FUNQL = [
    "state",  # depth 1, arity 0
    "answer(state)",  # depth 2
    "f(a, b, c)",  # arity 3 over leaves
    "answer(population_1(cityid('austin', _)))",  # depth 4, `_`
    "answer(intersection(state, next_to_2(most(state, loc_1, city))))",
    # NQG's own test target, in the spaced form of its TSV files
    "answer ( intersection ( state , next_to_2 ( most ( state , loc_1 , city ) ) ) )",
    "answer(intersection(state, state))",  # one symbol in both positions
    "answer(exclude(intersection(state, river), intersection(state, river)))",  # pairs twice
    "answer(count(intersection(state, next_to_2(stateid('texas')))))",  # depth 5
    "answer(intersection(city, loc_2(stateid('new york'))))",  # space inside quotes
    "answer(population_1(cityid('washington, dc', _)))",  # comma inside quotes
    # depth 6, intersection( state , __ ) twice, intersection at depths 2 and 3
    "answer(intersection(intersection(state, loc_2(countryid(usa))), "
    "intersection(state, next_to_2(stateid(texas)))))",
    "answer(largest_one(population_1, state))",  # arity 2
    "answer(most(state, loc_1, intersection(city, major)))",  # arity 3 over a call
    "answer(fewest(river, traverse_2, intersection(state, loc_2(countryid('usa')))))",  # depth 6
    "answer(count(intersection(river, traverse_2(stateid('new mexico')))))",
    "answer(elevation_1(placeid('mount mckinley')))",
    "answer(intersection(city, loc_2(stateid(m0))))",
    "answer(size(largest(state)))",
    "answer(largest(intersection(city, loc_2(largest(state)))))",  # largest at depths 2 and 5
    "answer(cityid('austin', tx))",
    "answer(cityid(_, _))",  # `_` in both positions
    "answer(intersection(city, cityid('st. louis', _)))",
    "f(g(h(i(j(k)))))",  # depth 6 chain
    "f(g(x), g(x), g(x))",  # g( x ) three times
    "answer(intersection(state, intersection(state, intersection(state, river))))",
    "cityid('a, b, c', 'd (e) f')",  # commas and parentheses inside quotes
    "answer ( cityid ( new york , _ ) )",  # NQG's TSV form: quotes already deleted
    "answer(  intersection( state ,loc_2( 0 ) ) )",  # odd spacing, a number constant
    "answer(\n  intersection(state,\n    river))",  # several lines
    'answer(population_1(cityid("san antonio", tx)))',  # double quotes
    "answer(intersection(major, intersection(city, loc_2(stateid('kansas, ks')))))",
    "most(a(b, c(d, e, f(g))), h, i(j(k(l))))",  # arities 3, 2, 3, 1 mixed, depth 5
]


def depth(funql: str) -> int:
    arguments = _get_name_and_arguments(nqg_target(funql))[1]
    return 1 + max((depth(argument) for argument in arguments or ()), default=0)


def test_the_examples_cover_what_they_should() -> None:
    assert len(FUNQL) >= 25
    assert {depth(funql) for funql in FUNQL} >= {1, 2, 3, 4, 5, 6}
    arities = {len(arguments or ()) for funql in FUNQL for arguments in _all_arguments(funql)}
    assert arities >= {0, 1, 2, 3}
    assert any(max(oracle(funql)[1].values(), default=0) >= 2 for funql in FUNQL)


def _all_arguments(funql: str) -> list[list[str] | None]:
    pending, found = [nqg_target(funql)], []
    while pending:
        arguments = _get_name_and_arguments(pending.pop())[1]
        found.append(arguments)
        pending.extend(arguments or ())
    return found


@pytest.mark.parametrize("funql", FUNQL)
def test_funql_matches_nqg(funql: str) -> None:
    atoms, compounds = funql_atoms_compounds(funql)
    expected_atoms, expected_compounds = oracle(funql)
    assert len(atoms) == len(set(atoms))
    assert set(atoms) == expected_atoms
    assert Counter(compounds) == expected_compounds


@pytest.mark.parametrize("funql", FUNQL)
def test_sexpr_rendering_gives_the_same(funql: str) -> None:
    assert sexpr_atoms_compounds(to_sexpr(funql)) == funql_atoms_compounds(funql)


def test_nqg_unit_test() -> None:
    # tmcd_utils_test.py, test_get_atoms_and_compounds
    atoms, compounds = funql_atoms_compounds(
        "answer ( intersection ( state , next_to_2 ( most ( state , loc_1 , city ) ) ) )"
    )
    assert set(atoms) == {"next_to_2", "loc_1", "most", "intersection", "state", "city", "answer"}
    assert Counter(compounds) == {
        "answer( intersection )": 1,
        "intersection( state , __ )": 1,
        "intersection( __ , next_to_2 )": 1,
        "next_to_2( most )": 1,
        "most( state , __ , __ )": 1,
        "most( __ , loc_1 , __ )": 1,
        "most( __ , __ , city )": 1,
    }


def test_order_is_first_appearance_and_nqg_recursion() -> None:
    atoms, compounds = funql_atoms_compounds("a(b(c, a), c(b))")
    assert atoms == ["a", "b", "c"]
    assert compounds == ["a( b , __ )", "b( c , __ )", "b( __ , a )", "a( __ , c )", "c( b )"]


def test_compounds_are_counted() -> None:
    assert Counter(funql_atoms_compounds("f(g(x), g(x))")[1])["g( x )"] == 2
    assert Counter(sexpr_atoms_compounds("(f (g x) (g x))")[1])["g( x )"] == 2
    # the same pair in different positions is two different compounds
    assert Counter(funql_atoms_compounds("f(x, x)")[1]) == {"f( x , __ )": 1, "f( __ , x )": 1}


def test_constants_and_underscore() -> None:
    atoms, compounds = funql_atoms_compounds("cityid('new   york', _)")
    # as in NQG: one atom per word, the whole constant as the compound child, `_` a plain atom;
    # runs of spaces become one
    assert atoms == ["cityid", "new", "york", "_"]
    assert compounds == ["cityid( new york , __ )", "cityid( __ , _ )"]
    assert funql_atoms_compounds("f('x')") == funql_atoms_compounds("f(x)")


def test_arity_zero_list_in_sexpr() -> None:
    assert sexpr_atoms_compounds("(f)") == (["f"], [])
    assert sexpr_atoms_compounds("(f (g) x,y)") == (
        ["f", "g", "x,y"],
        ["f( g , __ )", "f( __ , x,y )"],
    )


def test_deep_trees_need_no_recursion() -> None:
    n = 5000
    atoms, compounds = funql_atoms_compounds("f(" * n + "x" + ")" * n)
    assert atoms == ["f", "x"]
    assert Counter(compounds) == {"f( f )": n - 1, "f( x )": 1}
    assert sexpr_atoms_compounds("(f " * n + "x" + ")" * n) == (atoms, compounds)


_NAMES = st.sampled_from(["state", "loc_1", "_", "m0", "0", "new york", "a, b", "c (d)", "x"])


def _trees(leaves: st.SearchStrategy[str]) -> st.SearchStrategy[tuple[str, list[object]]]:
    calls = st.sampled_from(["answer", "f", "intersection", "most", "g"])
    return st.recursive(
        leaves.map(lambda name: (name, [])),
        lambda children: st.tuples(calls, st.lists(children, min_size=1, max_size=3)),
        max_leaves=12,
    )


def _funql(tree: tuple[str, list[object]], spaced: bool) -> str:
    name, children = tree
    symbol = f"'{name}'" if re.search(r"[\s(),]", name) else name
    if not children:
        return symbol
    comma, open_, close = (" , ", " ( ", " )") if spaced else (",", "(", ")")
    inner = comma.join(_funql(child, spaced) for child in children)  # type: ignore[arg-type]
    return symbol + open_ + inner + close


@settings(max_examples=150, deadline=None)
@given(tree=_trees(_NAMES), spaced=st.booleans())
def test_random_trees_match_nqg(tree: tuple[str, list[object]], spaced: bool) -> None:
    funql = _funql(tree, spaced)
    atoms, compounds = funql_atoms_compounds(funql)
    expected_atoms, expected_compounds = oracle(funql)
    assert (set(atoms), Counter(compounds)) == (expected_atoms, expected_compounds)
    assert sexpr_atoms_compounds(to_sexpr(funql)) == (atoms, compounds)


MALFORMED_FUNQL = [
    ("", "empty FunQL text", 1),
    ("   ", "empty FunQL text", 1),
    ("answer(x))", "unbalanced ')'", 10),
    (")", "unbalanced ')'", 1),
    ("answer(x", "unbalanced '('", 7),
    ("f(g(a, b)", "unbalanced '('", 2),
    ("answer(x) y", "trailing text 'y'", 11),
    ("f(x) g(y)", "trailing text 'g'", 6),
    ("f(a)(b)", "trailing text '('", 5),
    ("a, b", "',' outside an argument list", 2),
    ("answer(cityid('austin, _))", "unterminated quote", 15),
    ('f("x)', "unterminated quote", 3),
    ("answer()", "empty argument list '()'", 8),
    ("f(a,,b)", "empty argument", 5),
    ("f(a,)", "empty argument", 5),
    ("f(a,", "unexpected end of text", 5),
    ("(a)", "expected a symbol, got '('", 1),
    ("f('a' b)", "expected ',' or ')' after an argument, got 'b'", 7),
    ("f(g(x) y)", "expected ',' or ')' after an argument, got 'y'", 8),
    ("f('')", "empty quoted constant", 3),
    ("answer(\n  x))", "unbalanced ')'", 13),
]

MALFORMED_SEXPR = [
    ("", "empty s-expression text", 1),
    ("(answer x))", "unbalanced ')'", 11),
    (")", "unbalanced ')'", 1),
    ("(answer (x)", "unbalanced '('", 1),
    ("(", "unbalanced '('", 1),
    ("(a) b", "trailing text 'b'", 5),
    ("a b", "trailing text 'b'", 3),
    ("()", "empty list '()'", 2),
    ("((f a) b)", "the head of a list is '('", 2),
    ("(f 'abc)", "unterminated quote", 4),
    ('(f "")', "empty quoted constant", 4),
]


def assert_caret(error: DataError, text: str, problem: str, column: int) -> None:
    first, shown, caret = str(error).split("\n")
    assert first.startswith(problem)
    assert first.endswith(f" at column {column}:")
    assert shown == "  " + re.sub(r"\s", " ", text)
    assert caret == " " * (column + 1) + "^"


@pytest.mark.parametrize(("text", "problem", "column"), MALFORMED_FUNQL)
def test_malformed_funql(text: str, problem: str, column: int) -> None:
    with pytest.raises(DataError) as caught:
        funql_atoms_compounds(text)
    assert_caret(caught.value, text, problem, column)


@pytest.mark.parametrize(("text", "problem", "column"), MALFORMED_SEXPR)
def test_malformed_sexpr(text: str, problem: str, column: int) -> None:
    with pytest.raises(DataError) as caught:
        sexpr_atoms_compounds(text)
    assert_caret(caught.value, text, problem, column)


def test_long_text_is_cut_around_the_caret() -> None:
    text = "f(" + ", ".join(["state"] * 100) + "))"
    with pytest.raises(DataError) as caught:
        funql_atoms_compounds(text)
    first, shown, caret = str(caught.value).split("\n")
    assert first == f"unbalanced ')' at column {len(text)}:"
    assert shown.startswith("  ...") and len(shown) < 80
    assert shown[caret.index("^")] == ")"
