"""Test suites: the five compositionality tests of Hupkes et al. (2020) and their PCFG-LET
and SCAN counterparts, built as splits over generated pools (see :mod:`symcomp.suites.folder`
for the folder layout)."""
