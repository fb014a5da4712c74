"""PCFG-LET (Neely & Talha 2020): list-edit programs, localism and systematicity."""
