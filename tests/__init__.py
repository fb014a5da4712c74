"""The symcomp test-suite."""
