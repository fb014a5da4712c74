"""SCAN (Lake & Baroni 2018): navigation commands and their published splits."""
